package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** One of a setting's choices, spelled as the YAML file does: lower case, words joined by '-'. */
public interface Choice {
    /** The enum constant's name (every {@code Choice} is an enum). */
    String name();

    @JsonValue
    default String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether a file's or a command line's {@code text} names this choice. */
    default boolean named(final String text) {
        return label().equals(text);
    }
}
