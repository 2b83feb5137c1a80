package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.SettingsChoices.TransportKind;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The transports on the class path, each registered by name in its module's
 * {@code META-INF/services/io.trimswitch.simulator.Transport} (NDP's, the default, as every other).
 */
public final class Transports {
    private Transports() {
    }

    /** The transport named {@code name}, or a one-line refusal that lists those there are. */
    public static Transport named(final String name) {
        final Transport found = find(name);
        if (found == null) {
            final List<String> names = new ArrayList<>();
            ServiceLoader.load(Transport.class, Transports.class.getClassLoader()).forEach(t -> names.add(t.name()));
            throw new ConfigException("no transport named '" + name + "'; there are "
                + (names.isEmpty() ? "none on the class path" : String.join(", ", names.stream().sorted().toList())));
        }
        return found;
    }

    /**
     * The transport a lone switch's hosts run for {@code kind}: null for open-loop senders, built in; a name no transport
     * is registered under is a one-line refusal that lists the names there are.
     */
    public static Transport forKind(final TransportKind kind) {
        if (TransportKind.OPEN_LOOP.equals(kind)) {
            return null;
        }
        final Transport found = find(kind.label());
        if (found == null) {
            final List<String> names = new ArrayList<>();
            ServiceLoader.load(Transport.class, Transports.class.getClassLoader()).forEach(t -> names.add(t.name()));
            throw new ConfigException("transport.kind must be one of " + TransportKind.OPEN_LOOP.label() + ", "
                + String.join(", ", names.stream().sorted().toList()) + ", got '" + kind.label() + "'");
        }
        return found;
    }

    /** The transport named {@code name}, or null when none is registered by that name. */
    public static Transport find(final String name) {
        for (final Transport transport : ServiceLoader.load(Transport.class, Transports.class.getClassLoader())) {
            if (transport.name().equals(name)) {
                return transport;
            }
        }
        return null;
    }
}
