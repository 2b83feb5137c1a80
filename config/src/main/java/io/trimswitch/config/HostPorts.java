package io.trimswitch.config;

import java.net.InetSocketAddress;

/** A socket address as a user writes it on a command line, {@code HOST:PORT}: resolved now, or refused in one line naming the option. */
public final class HostPorts {
    private HostPorts() {
    }

    public static InetSocketAddress parse(final String option, final String text) {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new ConfigException(option + " must be HOST:PORT, got '" + text + "'");
        }
        final InetSocketAddress address;
        try {
            address = new InetSocketAddress(text.substring(0, colon), WholeNumbers.parseInt(text.substring(colon + 1)));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(option + ": '" + text + "' is not HOST:PORT (" + e.getMessage() + ")");
        }
        if (address.isUnresolved()) {
            throw new ConfigException(option + ": unknown host '" + text.substring(0, colon) + "'");
        }
        return address;
    }
}
