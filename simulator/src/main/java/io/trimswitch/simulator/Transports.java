package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The transports: NDP's, built in, and those on the class path, each registered by name in its module's
 * {@code META-INF/services/io.trimswitch.simulator.Transport}.
 */
public final class Transports {
    private static final Transport NDP = new NdpTransport();

    private Transports() {
    }

    /** The transport named {@code name}, or a one-line refusal that lists those there are. */
    public static Transport named(final String name) {
        final Transport found = find(name);
        if (found == null) {
            final List<String> names = new ArrayList<>(List.of(NDP.name()));
            ServiceLoader.load(Transport.class, Transports.class.getClassLoader()).forEach(t -> names.add(t.name()));
            throw new ConfigException("no transport named '" + name + "'; there are " + String.join(", ", names.stream().sorted().toList()));
        }
        return found;
    }

    /** The transport named {@code name}, or null when none is registered by that name. */
    public static Transport find(final String name) {
        if (NDP.name().equals(name)) {
            return NDP;
        }
        for (final Transport transport : ServiceLoader.load(Transport.class, Transports.class.getClassLoader())) {
            if (transport.name().equals(name)) {
                return transport;
            }
        }
        return null;
    }
}
