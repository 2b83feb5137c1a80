package io.trimswitch.cli;

import io.trimswitch.config.WholeNumbers;
import picocli.CommandLine;

/**
 * The options that take a whole number read it from the ASCII digits 0-9 only: picocli's own conversion would take any
 * script's digits. A class, not lambdas, for the class-data sharing archive (see {@code TrimswitchCommand.Errors}).
 */
final class WholeNumberOptions<T> implements CommandLine.ITypeConverter<T> {
    private final Class<T> type;

    private WholeNumberOptions(final Class<T> type) {
        this.type = type;
    }

    /** For every option of {@code commandLine} and its subcommands that takes an int or a long. */
    static void register(final CommandLine commandLine) {
        final WholeNumberOptions<Integer> ints = new WholeNumberOptions<>(Integer.class);
        final WholeNumberOptions<Long> longs = new WholeNumberOptions<>(Long.class);
        commandLine.registerConverter(Integer.class, ints);
        commandLine.registerConverter(Integer.TYPE, ints);
        commandLine.registerConverter(Long.class, longs);
        commandLine.registerConverter(Long.TYPE, longs);
    }

    @Override
    public T convert(final String value) {
        if (!WholeNumbers.isWholeNumber(value)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number (digits 0-9)");
        }
        final boolean isLong = type == Long.class;
        try {
            return type.cast(isLong ? (Object) WholeNumbers.parseLong(value) : (Object) WholeNumbers.parseInt(value));
        } catch (final NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is out of range for " + (isLong ? "a long" : "an int"));
        }
    }
}
