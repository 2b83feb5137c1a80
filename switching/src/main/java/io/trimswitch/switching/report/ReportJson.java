package io.trimswitch.switching.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes reports as JSON. */
public final class ReportJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {
    }

    public static String toJson(final Object reports) {
        try {
            return JSON.writeValueAsString(reports);
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void write(final Path file, final Object reports) {
        try {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            JSON.writeValue(file.toFile(), reports);
        } catch (final IOException e) {
            throw new ConfigException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
