package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code run -i PORT@IFACE[:KIND]}: ports on Linux interfaces given on the command line, BMv2's way, each of its kind. */
final class InterfaceOptions {
    /** More ports than this cannot be meant: it is more than any switch the settings can describe. */
    private static final int MOST_PORTS = 4096;

    private InterfaceOptions() {
    }

    /**
     * {@code settings} with each {@code PORT@IFACE} in {@code ports[PORT]}, in place of what the config had there, or
     * after its last port. The ports must stay numbered 0, 1, 2 ... without a gap.
     */
    static Settings apply(final List<String> options, final Settings settings) {
        final List<Settings.Port> ports = new ArrayList<>(settings.ports());
        final Map<Integer, String> given = new HashMap<>();
        for (final String option : options) {
            final int at = option.indexOf('@');
            if (at <= 0 || at == option.length() - 1) {
                throw new ConfigException("-i must be PORT@IFACE, like 0@veth0, got '" + option + "'");
            }
            final int port;
            try {
                port = io.trimswitch.config.WholeNumbers.parseInt(option.substring(0, at));
            } catch (final NumberFormatException e) {
                throw new ConfigException("-i " + option + ": '" + option.substring(0, at) + "' is not a port number");
            }
            if (port < 0 || port >= MOST_PORTS) {
                throw new ConfigException("-i " + option + ": port must be 0.." + (MOST_PORTS - 1) + ", got " + port);
            }
            final String earlier = given.putIfAbsent(port, option);
            if (earlier != null) {
                // The later one would silently replace the earlier: a switch with a port fewer than asked for.
                throw new ConfigException("-i " + option + ": port " + port + " is already given by -i " + earlier + ": a port sits on one interface");
            }
            while (ports.size() <= port) {
                ports.add(null);
            }
            // The config's rate for the port stays: -i says only where the port is.
            final Double rate = ports.get(port) == null ? null : ports.get(port).rateGbps();
            // An interface's name has no ':', so what follows one is the port's kind.
            final String where = option.substring(at + 1);
            final int colon = where.indexOf(':');
            final String kind = colon < 0 ? null : where.substring(colon + 1);
            ports.set(port, Settings.Port.DEFAULTS.withInterfaceName(colon < 0 ? where : where.substring(0, colon)).withKind(kind).withRateGbps(rate));
        }
        for (int port = 0; port < ports.size(); port++) {
            if (ports.get(port) == null) {
                throw new ConfigException("-i: port " + port + " is missing: ports are numbered 0, 1, 2 ... without a gap");
            }
        }
        return settings.withPorts(ports);
    }
}
