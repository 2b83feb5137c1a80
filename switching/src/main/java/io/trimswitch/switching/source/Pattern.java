package io.trimswitch.switching.source;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.WholeNumbers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A named traffic pattern (incast, mod16, shift, pairs), resolved to sender → receiver port pairs. Each port hosts at most
 * one sender; a port may receive from many.
 *
 * <ul>
 *   <li>{@code incast:N->K}: senders on ports 0..N-1, sender i sends to port i mod K;</li>
 *   <li>{@code mod16:N}: sender i on port i sends to port i mod 16 (the 1..64 sweep);</li>
 *   <li>{@code shift}: port p of every pipeline sends to port (p+1) mod G of pipeline 0 — the worst case;</li>
 *   <li>{@code pairs:S->D,...}: an explicit list.</li>
 * </ul>
 */
public final class Pattern {
    private final String text;
    private final int[] senders;
    private final int[] receivers;

    private Pattern(final String text, final int[] senders, final int[] receivers) {
        this.text = text;
        this.senders = senders;
        this.receivers = receivers;
    }

    /** The pattern of {@code settings}' workload on their fabric's ports. */
    public static Pattern of(final Settings settings) {
        return parse(settings.workload().pattern(), settings.fabric().pipelines(), settings.fabric().portsPerPipeline());
    }

    public static Pattern parse(final String pattern, final int pipelines, final int portsPerPipeline) {
        if (pattern == null || pattern.isBlank()) {
            throw new ConfigException("pattern is empty: expected incast:N->K, mod16:N, shift or pairs:S->D,...");
        }
        final String text = pattern.trim().toLowerCase(Locale.ROOT);
        final int ports = pipelines * portsPerPipeline;
        final List<int[]> flows = new ArrayList<>();
        if (text.equals("shift")) {
            for (int port = 0; port < ports; port++) {
                flows.add(new int[] {port, (port % portsPerPipeline + 1) % portsPerPipeline});
            }
        } else if (text.startsWith("incast:")) {
            final String[] sides = arrow(text.substring("incast:".length()), pattern);
            final int senders = number(sides[0], pattern, "sender count");
            final int receivers = number(sides[1], pattern, "receiver count");
            requireSenders(senders, ports, pattern);
            if (receivers < 1 || receivers > ports) {
                throw new ConfigException("pattern '" + pattern + "': receiver count " + receivers + " must be 1.." + ports);
            }
            for (int sender = 0; sender < senders; sender++) {
                flows.add(new int[] {sender, sender % receivers});
            }
        } else if (text.startsWith("mod16:")) {
            final int senders = number(text.substring("mod16:".length()), pattern, "sender count");
            requireSenders(senders, ports, pattern);
            if (ports < 16) {
                throw new ConfigException("pattern '" + pattern + "' needs at least 16 ports, the switch has " + ports);
            }
            for (int sender = 0; sender < senders; sender++) {
                flows.add(new int[] {sender, sender % 16});
            }
        } else if (text.startsWith("pairs:")) {
            for (final String pair : text.substring("pairs:".length()).split(",", -1)) {
                if (pair.isBlank()) {
                    throw new ConfigException("pattern '" + pattern + "': an empty pair; expected pairs:S->D,S->D,...");
                }
                final String[] sides = arrow(pair, pattern);
                final int sender = number(sides[0], pattern, "sender port");
                final int receiver = number(sides[1], pattern, "receiver port");
                for (final int port : new int[] {sender, receiver}) {
                    if (port >= ports) {
                        throw new ConfigException("pattern '" + pattern + "': port " + port + " does not exist (the switch has ports 0.." + (ports - 1) + ")");
                    }
                }
                flows.add(new int[] {sender, receiver});
            }
        } else {
            throw new ConfigException("unknown pattern '" + pattern + "': expected incast:N->K, mod16:N, shift or pairs:S->D,...");
        }
        final boolean[] hasSender = new boolean[ports];
        final int[] senders = new int[flows.size()];
        final int[] receivers = new int[flows.size()];
        for (int flow = 0; flow < flows.size(); flow++) {
            senders[flow] = flows.get(flow)[0];
            receivers[flow] = flows.get(flow)[1];
            if (hasSender[senders[flow]]) {
                throw new ConfigException("pattern '" + pattern + "': port " + senders[flow] + " would host two senders");
            }
            hasSender[senders[flow]] = true;
        }
        return new Pattern(text, senders, receivers);
    }

    private static void requireSenders(final int senders, final int ports, final String pattern) {
        if (senders < 1 || senders > ports) {
            throw new ConfigException("pattern '" + pattern + "': " + senders + " senders but the switch has " + ports + " ports (one sender per port)");
        }
    }

    private static String[] arrow(final String text, final String pattern) {
        final String[] sides = text.split("->", -1);
        if (sides.length != 2) {
            throw new ConfigException("pattern '" + pattern + "': expected S->D in '" + text + "'");
        }
        return sides;
    }

    private static int number(final String text, final String pattern, final String what) {
        try {
            final int value = WholeNumbers.parseInt(text.trim());
            if (value < 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (final NumberFormatException e) {
            throw new ConfigException("pattern '" + pattern + "': " + what + " '" + text.trim() + "' is not a whole number of 0 or more");
        }
    }

    public String text() {
        return text;
    }

    public int flows() {
        return senders.length;
    }

    public int sender(final int flow) {
        return senders[flow];
    }

    public int receiver(final int flow) {
        return receivers[flow];
    }
}
