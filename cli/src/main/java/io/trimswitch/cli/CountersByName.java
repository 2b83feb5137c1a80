package io.trimswitch.cli;

import io.trimswitch.live.settings.LiveSettings;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A switch's counters file from what a user typed after {@code --counters}: the file itself, or a switch's name, which
 * stands for the file its launcher gives it in the switches' run directory: {@code sp1} for Mininet's
 * {@code /run/trimswitch/trimswitch-mininet-sp1.counters}, {@code lab} for {@code /run/trimswitch/trimswitch-lab.counters}.
 */
final class CountersByName {
    private CountersByName() {
    }

    /** {@code given} when it is a path or an existing file; else the first file its name stands for that exists; else {@code given}. */
    static Path find(final Path given) {
        final String name = given.toString();
        if (name.contains("/") || Files.exists(given)) {
            return given;
        }
        for (final String candidate : new String[] {"trimswitch-mininet-" + name + ".counters", "trimswitch-" + name + ".counters", name + ".counters"}) {
            final Path file = LiveSettings.findInRunDirectory(candidate);
            if (Files.exists(file)) {
                return file;
            }
        }
        return given;
    }
}
