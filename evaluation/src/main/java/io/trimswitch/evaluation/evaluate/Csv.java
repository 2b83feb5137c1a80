package io.trimswitch.evaluation.evaluate;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** A CSV file of plain values: a header row, then rows of numbers and simple words. */
final class Csv implements Closeable {
    private final BufferedWriter out;
    private final int columns;

    Csv(final Path file, final String... header) throws IOException {
        this.out = Files.newBufferedWriter(file);
        this.columns = header.length;
        row((Object[]) header);
    }

    void row(final Object... values) throws IOException {
        if (values.length != columns) {
            throw new IllegalArgumentException("row of " + values.length + " values for " + columns + " columns");
        }
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(format(values[i]));
        }
        out.write('\n');
    }

    private static String format(final Object value) {
        if (value instanceof Double number) {
            return Double.isNaN(number) ? "" : String.format(Locale.ROOT, "%.6g", number);
        }
        final String text = String.valueOf(value);
        return text.contains(",") || text.contains("\"") ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
