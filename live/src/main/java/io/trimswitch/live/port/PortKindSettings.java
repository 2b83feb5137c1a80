package io.trimswitch.live.port;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsValidation;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.interfaces.SocketKinds;

/** The settings of an interface port's kind: {@code realtime.portKind}, {@code ports[].kind} and {@code ports[].queues}. */
public final class PortKindSettings {
    /** Receive queues a port reads at most: the entries of its XDP program's socket map. */
    private static final int MOST_QUEUES = 64;

    private PortKindSettings() {
    }

    /** How a port on an interface reads and sends unless its own {@code kind} says: {@code realtime.portKind}. */
    public static SocketKind portKind(final Settings s) {
        return kind("realtime.portKind", s.realtime().portKind());
    }

    /**
     * A port's receive queues: 1 unless said, and no more than an XDP socket map holds (on {@code af_packet}, sockets in
     * a fanout group; whether the interface has that many is known when it opens).
     */
    public static int queues(final String name, final Integer queues, final SocketKind kind) {
        if (queues == null) {
            return 1;
        }
        SettingsValidation.within(name + ".queues", queues, 1, MOST_QUEUES);
        return queues;
    }

    /** A port's own kind, or {@code realtime.portKind} when it names none. */
    public static SocketKind kind(final Settings s, final String port, final String value) {
        return value == null ? portKind(s) : kind(port + ".kind", value);
    }

    private static SocketKind kind(final String name, final String value) {
        return java.util.Optional.ofNullable(SocketKinds.named(value)).orElseThrow(() -> new ConfigException(
            name + " must be one of " + SocketKinds.names() + ", got " + (value == null ? "null" : "'" + value + "'")));
    }
}
