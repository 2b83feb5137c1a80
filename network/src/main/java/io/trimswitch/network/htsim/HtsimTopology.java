package io.trimswitch.network.htsim;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.InputFiles;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A fat tree as htsim's {@code .topo} file describes it (csg-htsim and uet-htsim read the same keys): {@code Nodes},
 * {@code Tiers} (2 or 3) and {@code Podsize}, then per {@code Tier T} (0: top-of-rack, 1: aggregation, 2: core) the
 * speed, radix, latency, oversubscription, bundle and queue sizes of its switches' downlinks. Keys are read without
 * regard to case, as htsim reads them; an unknown key, a repeated one or a value out of range is refused in one line
 * naming the file, the line and the key.
 */
public record HtsimTopology(int nodes, int tiers, int podSize, Tier[] tier, String source) {

    /** One tier's switches; {@code radixUp} and {@code queueUpBytes} are 0 at the top tier. Queue sizes 0: not given. */
    public record Tier(double speedGbps, int radixDown, int radixUp, double linkLatencyNs, double switchLatencyNs, int oversubscribed,
        int bundle, long queueUpBytes, long queueDownBytes) {
    }

    /** Most hosts a fat tree takes: host h has the address 10.x.y.1 (h = 256 x + y). */
    public static final int MAX_NODES = 65_536;

    /** Reads {@code file}; a file that cannot be read is refused as its text would be. */
    public static HtsimTopology load(final Path file) {
        return parse(read(file), file.toString());
    }

    /** A .topo or .cm file's text, read as {@link InputFiles} reads every file a user names. */
    static String read(final Path file) {
        try {
            return InputFiles.text(file, InputFiles.HTSIM);
        } catch (final InputFiles.Refused e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** htsim's default fat tree for {@code nodes} hosts: k-ary with k³/4 hosts (3 tiers), every link at {@code speedGbps}. */
    public static HtsimTopology defaultFor(final int nodes, final double speedGbps, final double latencyNs, final String source) {
        int k = 2;
        while ((long) k * k * k / 4 < nodes) {
            k += 2;
        }
        if ((long) k * k * k / 4 != nodes) {
            throw new ConfigException(source + ": Nodes " + nodes + " is no k-ary fat tree's size (k³/4 hosts: 16, 54, 128, 250, 432, 686, 1024, ...);"
                + " give a topology with --topology");
        }
        final Tier tor = new Tier(speedGbps, k / 2, k / 2, latencyNs, 0, 1, 1, 0, 0);
        final Tier agg = new Tier(speedGbps, k / 2, k / 2, latencyNs, 0, 1, 1, 0, 0);
        final Tier core = new Tier(speedGbps, k, 0, latencyNs, 0, 1, 1, 0, 0);
        return new HtsimTopology(nodes, 3, nodes / k, new Tier[] {tor, agg, core}, "htsim's default fat tree for " + nodes + " nodes");
    }

    /** Parses a {@code .topo} file's text; {@code source} names it in messages. */
    public static HtsimTopology parse(final String text, final String source) {
        return new Reader(source).read(text);
    }

    /** The line each key of the file was on, for the messages of checks made after reading. */
    private static final class Reader {
        private final String source;
        private final Map<String, Integer> lineOf = new HashMap<>();
        private final Map<String, Double> value = new HashMap<>();
        private int line;

        Reader(final String source) {
            this.source = source;
        }

        private ConfigException refuse(final int at, final String message) {
            return new ConfigException(source + " line " + at + ": " + message);
        }

        HtsimTopology read(final String text) {
            int tier = -1;
            boolean[] seenTier = new boolean[3];
            for (final String raw : text.split("\r?\n|\r", -1)) {
                line++;
                final String stripped = raw.strip();
                if (stripped.isEmpty() || stripped.startsWith("#")) {
                    continue;
                }
                final String[] words = stripped.split("[ \t]+");
                final String key = words[0];
                final String lower = key.toLowerCase(Locale.ROOT);
                if (words.length != 2) {
                    throw refuse(line, key + " takes one value, got " + (words.length - 1));
                }
                if (lower.equals("tier")) {
                    tier = (int) number(key, words[1], 0, 2, true);
                    if (seenTier[tier]) {
                        throw refuse(line, "Tier " + tier + " is described twice");
                    }
                    seenTier[tier] = true;
                    continue;
                }
                final String name = switch (lower) {
                    case "nodes", "tiers", "podsize" -> {
                        if (tier >= 0) {
                            throw refuse(line, key + " belongs before the first Tier");
                        }
                        yield lower;
                    }
                    case "downlink_speed_gbps", "radix_down", "radix_up", "downlink_latency_ns", "switch_latency_ns", "oversubscribed", "bundle",
                        "queue_up", "queue_down" -> {
                        if (tier < 0) {
                            throw refuse(line, key + " belongs to a tier: put it after 'Tier N'");
                        }
                        yield tier + "." + lower;
                    }
                    default -> throw refuse(line, "unknown key " + InputFiles.quoted(key) + " (Nodes, Tiers, Podsize, Tier; per tier Downlink_speed_Gbps, Radix_Down, "
                        + "Radix_Up, Downlink_Latency_ns, Switch_Latency_ns, Oversubscribed, Bundle, Queue_Up, Queue_Down)");
                };
                if (lineOf.containsKey(name)) {
                    throw refuse(line, key + " is given twice" + (tier >= 0 ? " for tier " + tier : "") + " (first on line " + lineOf.get(name) + ")");
                }
                final boolean whole = !(lower.equals("downlink_speed_gbps") || lower.endsWith("_ns"));
                final double max = switch (lower) {
                    case "nodes", "podsize" -> MAX_NODES;
                    case "tiers" -> 3;
                    case "downlink_speed_gbps" -> 1_600;
                    case "downlink_latency_ns", "switch_latency_ns" -> 1e6;
                    case "queue_up", "queue_down" -> 1L << 30;
                    default -> 65_536;
                };
                final double min = lower.equals("tiers") ? 2 : lower.endsWith("_ns") || lower.startsWith("queue") ? 0 : 1;
                value.put(name, number(key, words[1], min, max, whole));
                lineOf.put(name, line);
            }
            return check();
        }

        private double number(final String key, final String text, final double min, final double max, final boolean whole) {
            final double parsed;
            try {
                parsed = Double.parseDouble(text);
            } catch (final NumberFormatException e) {
                throw refuse(line, key + " takes a number, got " + InputFiles.quoted(text));
            }
            if (!(parsed >= min && parsed <= max) || whole && parsed != Math.rint(parsed)) {
                throw refuse(line, key + " takes " + (whole ? "a whole number" : "a number") + " from " + plain(min) + " to " + plain(max) + ", got " + InputFiles.cut(text));
            }
            return parsed;
        }

        private static String plain(final double value) {
            return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
        }

        private int header(final String key, final String shown) {
            final Double v = value.get(key);
            if (v == null) {
                throw new ConfigException(source + ": " + shown + " is missing");
            }
            return v.intValue();
        }

        private double tierValue(final int tier, final String key, final String shown, final double absent, final boolean required) {
            final Double v = value.get(tier + "." + key);
            if (v == null && required) {
                throw new ConfigException(source + ": " + shown + " is missing for tier " + tier);
            }
            return v == null ? absent : v;
        }

        private int at(final int tier, final String key) {
            return lineOf.getOrDefault(tier + "." + key, lineOf.getOrDefault(key, 0));
        }

        private HtsimTopology check() {
            final int nodes = header("nodes", "Nodes");
            final int tiers = header("tiers", "Tiers");
            final int podSize = header("podsize", "Podsize");
            final Tier[] each = new Tier[tiers];
            for (int t = 0; t < tiers; t++) {
                if (!value.containsKey(t + ".radix_down") && !lineOf.containsKey(t + ".downlink_speed_gbps")) {
                    throw new ConfigException(source + ": Tier " + t + " is missing (Tiers " + tiers + ")");
                }
                final boolean top = t == tiers - 1;
                if (top && value.containsKey(t + ".radix_up")) {
                    throw refuse(at(t, "radix_up"), "Radix_Up of tier " + t + ": the top tier has no uplinks");
                }
                if (top && value.containsKey(t + ".queue_up")) {
                    throw refuse(at(t, "queue_up"), "Queue_Up of tier " + t + ": the top tier has no uplinks");
                }
                if (t == 0 && value.containsKey("0.bundle") && value.get("0.bundle") != 1) {
                    throw refuse(at(0, "bundle"), "Bundle of tier 0 must be 1: a host has one link");
                }
                each[t] = new Tier(tierValue(t, "downlink_speed_gbps", "Downlink_speed_Gbps", 0, true),
                    (int) tierValue(t, "radix_down", "Radix_Down", 0, true),
                    top ? 0 : (int) tierValue(t, "radix_up", "Radix_Up", 0, true),
                    tierValue(t, "downlink_latency_ns", "Downlink_Latency_ns", 0, true),
                    tierValue(t, "switch_latency_ns", "Switch_Latency_ns", 0, false),
                    (int) tierValue(t, "oversubscribed", "Oversubscribed", 1, false),
                    (int) tierValue(t, "bundle", "Bundle", 1, false),
                    (long) tierValue(t, "queue_up", "Queue_Up", 0, false),
                    (long) tierValue(t, "queue_down", "Queue_Down", 0, false));
            }
            for (int t = tiers; t < 3; t++) {
                for (final String key : lineOf.keySet()) {
                    if (key.startsWith(t + ".")) {
                        throw refuse(lineOf.get(key), "tier " + t + " is beyond Tiers " + tiers);
                    }
                }
            }
            final HtsimTopology topology = new HtsimTopology(nodes, tiers, podSize, each, source);
            HtsimShape.of(topology, this::at);
            return topology;
        }
    }

    /** Where a key was given, for the shape's messages: its line, or 0 when the file has no such key. */
    interface KeyLines {
        int at(int tier, String key);
    }

    Tier tor() {
        return tier[0];
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof HtsimTopology t && t.nodes == nodes && t.tiers == tiers && t.podSize == podSize
            && java.util.Arrays.equals(t.tier, tier);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(nodes, tiers, podSize, java.util.Arrays.hashCode(tier));
    }

    @Override
    public String toString() {
        return source;
    }
}
