package io.trimswitch.config;

import io.trimswitch.dataplane.packet.TrimOptOut;

/** Turns a rule of {@code trim.disable} into the dataplane's matcher; every mistake names the rule and field. */
final class OptOutRules {
    private OptOutRules() {
    }

    static TrimOptOut parse(final String name, final Settings.OptOut rule) {
        if (rule.source() == null && rule.destination() == null && rule.protocol() == null && rule.destinationPorts() == null && rule.dscp() == null) {
            throw new ConfigException(name + " matches every packet: give at least one of source, destination, protocol, destinationPorts, dscp");
        }
        final int[] source = rule.source() == null ? new int[] {0, -1} : prefix(name + ".source", rule.source());
        final int[] destination = rule.destination() == null ? new int[] {0, -1} : prefix(name + ".destination", rule.destination());
        final int[] ports = rule.destinationPorts() == null ? new int[] {-1, -1} : ports(name + ".destinationPorts", rule.destinationPorts());
        if (rule.dscp() != null && (rule.dscp() < 0 || rule.dscp() > 63)) {
            throw new ConfigException(name + ".dscp must be 0..63, got " + rule.dscp());
        }
        return new TrimOptOut(source[0], source[1], destination[0], destination[1], protocol(name + ".protocol", rule.protocol()),
            ports[0], ports[1], rule.dscp() == null ? -1 : rule.dscp());
    }

    /** An IPv4 prefix a.b.c.d/len as address and length. */
    private static int[] prefix(final String name, final String text) {
        final String[] parts = text.split("/", -1);
        if (parts.length != 2) {
            throw new ConfigException(name + " must be an IPv4 prefix a.b.c.d/len, got '" + text + "'");
        }
        final String[] octets = parts[0].split("\\.", -1);
        if (octets.length != 4) {
            throw new ConfigException(name + " must be an IPv4 prefix a.b.c.d/len, got '" + text + "'");
        }
        int address = 0;
        for (final String octet : octets) {
            address = address << 8 | number(name, octet, 0, 255, text);
        }
        return new int[] {address, number(name, parts[1], 0, 32, text)};
    }

    /** N or N-M. */
    private static int[] ports(final String name, final String text) {
        final int dash = text.indexOf('-');
        final int first = number(name, dash < 0 ? text : text.substring(0, dash), 0, 65535, text);
        final int last = dash < 0 ? first : number(name, text.substring(dash + 1), first, 65535, text);
        return new int[] {first, last};
    }

    private static int protocol(final String name, final String text) {
        if (text == null) {
            return -1;
        }
        return switch (text) {
            case "udp" -> 17;
            case "tcp" -> 6;
            default -> number(name, text, 0, 255, text);
        };
    }

    private static int number(final String name, final String part, final int min, final int max, final String whole) {
        try {
            final int value = WholeNumbers.parseInt(part.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (final NumberFormatException e) {
            // said below
        }
        throw new ConfigException(name + ": '" + part + "' in '" + whole + "' is not a number " + min + ".." + max);
    }
}
