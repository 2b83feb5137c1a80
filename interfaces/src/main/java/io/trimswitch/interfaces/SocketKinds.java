package io.trimswitch.interfaces;

import io.trimswitch.dataplane.ports.PortKinds;

/** The kinds of interface port there are, each by its name ({@link SocketKind}): {@code af_packet}, {@code af_xdp}, as {@link PortKinds} finds them. */
public final class SocketKinds {
    /** The kind a port has unless the settings say otherwise. */
    public static final String AF_PACKET = "af_packet";

    private SocketKinds() {
    }

    /** The kind called {@code name}; null for none. */
    public static SocketKind named(final String name) {
        return PortKinds.named(SocketKind.class, name);
    }

    /** The names the settings take, for a message that refuses another. */
    public static String names() {
        return PortKinds.names(SocketKind.class);
    }
}
