package io.trimswitch.interfaces;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The kinds of interface port there are, each by its name ({@link SocketKind}): {@code af_packet}, {@code af_xdp}. */
public final class SocketKinds {
    /** The kind a port has unless the settings say otherwise. */
    public static final String AF_PACKET = "af_packet";
    private static final Map<String, SocketKind> KINDS = ServiceLoader.load(SocketKind.class, SocketKind.class.getClassLoader()).stream()
        .map(ServiceLoader.Provider::get).collect(Collectors.toMap(SocketKind::name, kind -> kind, (a, b) -> a, TreeMap::new));

    private SocketKinds() {
    }

    /** The kind called {@code name}; null for none. */
    public static SocketKind named(final String name) {
        return name == null ? null : KINDS.get(name);
    }

    /** The names the settings take, for a message that refuses another. */
    public static String names() {
        return String.join(", ", KINDS.keySet());
    }
}
