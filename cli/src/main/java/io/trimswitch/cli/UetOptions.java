package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;

import java.util.List;

/** Checks of the options {@code scenario} and {@code fabric} give UET hosts, beyond what each setting checks. */
final class UetOptions {
    private UetOptions() {
    }

    /** {@code --ecn}'s two depths: given twice, it would hold four, and the second pair would silently not count. */
    static List<Integer> ecn(final List<Integer> depths) {
        if (depths.size() != 2) {
            throw new ConfigException("--ecn takes LO HI once, got " + depths.size() / 2 + " pairs");
        }
        return depths;
    }
}
