package io.trimswitch.cli;

import io.trimswitch.config.WholeNumbers;
import picocli.CommandLine;

/**
 * How an option's whole number is read: an optional sign and the ASCII digits 0-9 only (picocli's own conversion would
 * take any script's digits, '١' as 1), and a number past the type's range is called too large or too small, naming
 * the bound, rather than "not an int". A class per type, not lambdas: see {@link TrimswitchCommand}'s note on the
 * class-data sharing archive.
 */
final class WholeNumberOptions {
    /** Digits quoted back in full up to here; a longer value is cut, so the error stays a short line. */
    private static final int QUOTED_DIGITS = 40;

    private WholeNumberOptions() {
    }

    /** Reads every {@code int} and {@code long} option of {@code commandLine} and of its subcommands this way. */
    static void register(final CommandLine commandLine) {
        commandLine.registerConverter(Integer.class, new Ints());
        commandLine.registerConverter(int.class, new Ints());
        commandLine.registerConverter(Long.class, new Longs());
        commandLine.registerConverter(long.class, new Longs());
    }

    static long parse(final String text, final long min, final long max) {
        if (!WholeNumbers.isWholeNumber(text)) {
            throw new CommandLine.TypeConversionException("'" + quoted(text) + "' is not a whole number (digits 0-9)");
        }
        final boolean negative = text.startsWith("-");
        final long value;
        try {
            value = WholeNumbers.parseLong(text);
        } catch (final NumberFormatException e) {
            throw outside(text, negative, min, max);
        }
        if (value < min || value > max) {
            throw outside(text, value < min, min, max);
        }
        return value;
    }

    private static CommandLine.TypeConversionException outside(final String text, final boolean small, final long min, final long max) {
        return new CommandLine.TypeConversionException("'" + quoted(text) + "' is too " + (small ? "small (min " + min : "large (max " + max) + ")");
    }

    private static String quoted(final String text) {
        return text == null || text.length() <= QUOTED_DIGITS ? String.valueOf(text) : text.substring(0, QUOTED_DIGITS) + "…";
    }

    private static final class Ints implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(final String text) {
            return (int) parse(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
    }

    private static final class Longs implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(final String text) {
            return parse(text, Long.MIN_VALUE, Long.MAX_VALUE);
        }
    }
}
