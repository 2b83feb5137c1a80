package io.trimswitch.config;

/**
 * The bounds that settings are checked against, each failure one line naming the setting. A block's own rules sit in
 * the block ({@code Fabric.validate}, {@code Control.validate} and the rest), applied in turn by {@link Settings#validate()}.
 */
public final class SettingsValidation {
    private SettingsValidation() {
    }

    /** Rates, Gb/s: from a megabit to ten terabits. */
    static final double MIN_RATE_GBPS = 0.001;
    static final double MAX_RATE_GBPS = 10_000;
    /** Packets any one queue may hold, and all of them together (every packet has a buffer). */
    static final long MAX_QUEUE_PACKETS = 1 << 20;
    static final long MAX_TOTAL_PACKETS = 1 << 24;
    /** Data queues per port, as in SAI. */
    static final int MAX_QUEUES = 8;

    static void atLeast(final String name, final long value, final long min) {
        if (value < min) {
            throw new ConfigException(name + " must be at least " + min + ", got " + value);
        }
    }

    static void atMost(final String name, final long value, final long max) {
        if (value > max) {
            throw new ConfigException(name + " must be at most " + max + ", got " + value);
        }
    }

    public static void within(final String name, final long value, final long min, final long max) {
        if (value < min || value > max) {
            throw new ConfigException(name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /** Finite and in [min, max]: NaN and infinity are refused like any value out of range. */
    public static void within(final String name, final double value, final double min, final double max, final String unit) {
        if (!(value >= min && value <= max)) {
            throw new ConfigException(name + " must be " + plain(min) + ".." + plain(max) + " " + unit + ", got " + value);
        }
    }

    public static void rate(final String name, final double gbps) {
        within(name, gbps, MIN_RATE_GBPS, MAX_RATE_GBPS, "Gb/s");
    }

    private static String plain(final double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    static void positive(final String name, final double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new ConfigException(name + " must be positive, got " + value);
        }
    }

    /** A file of flow sizes, where one is named (null: every flow has the workload's size). */
    public static void flowSizesFile(final String name, final String file) {
        if (file != null && file.isBlank()) {
            throw new ConfigException(name + " must name a CSV file of flow sizes, got '" + file + "'");
        }
    }

    public static void oneOf(final String name, final String value, final String... allowed) {
        for (final String candidate : allowed) {
            if (candidate.equals(value)) {
                return;
            }
        }
        throw new ConfigException(name + " must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
    }
}
