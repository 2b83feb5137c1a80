package io.trimswitch.dataplane.ports;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Every kind of port there is ({@link RegisteredKind}), each by its name: the one place a switch finds a kind, so that a
 * new kind is a package and a line in a services file. Each caller asks for the kinds that play its role, an interface
 * the kinds of that role implement ({@code SocketKind} for an interface port, say).
 */
public final class PortKinds {
    private static final Map<String, RegisteredKind> KINDS = ServiceLoader.load(RegisteredKind.class, RegisteredKind.class.getClassLoader())
        .stream().map(ServiceLoader.Provider::get).collect(java.util.stream.Collectors.toMap(RegisteredKind::name, kind -> kind, (a, b) -> a, TreeMap::new));

    private PortKinds() {
    }

    /** The kind called {@code name} that plays {@code role}; null for none. */
    public static <K extends RegisteredKind> K named(final Class<K> role, final String name) {
        final RegisteredKind kind = name == null ? null : KINDS.get(name);
        return role.isInstance(kind) ? role.cast(kind) : null;
    }

    /** The names of the kinds that play {@code role}, in order, for a message that refuses another. */
    public static String names(final Class<? extends RegisteredKind> role) {
        return String.join(", ", KINDS.entrySet().stream().filter(kind -> role.isInstance(kind.getValue())).map(Map.Entry::getKey).toList());
    }
}
