package io.trimswitch.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A switch's counters file from what a user typed after {@code --counters}: the file itself, or a switch's name, which
 * stands for the file its launcher gives it: {@code sp1} for Mininet's {@code /dev/shm/trimswitch-mininet-sp1.counters},
 * {@code lab} for {@code /dev/shm/trimswitch-lab.counters}.
 */
final class CountersByName {
    private static final Path SHM = Path.of("/dev/shm");

    private CountersByName() {
    }

    /** {@code given} when it is a path or an existing file; else the first file its name stands for that exists; else {@code given}. */
    static Path find(final Path given) {
        final String name = given.toString();
        if (name.contains("/") || Files.exists(given)) {
            return given;
        }
        for (final String candidate : new String[] {"trimswitch-mininet-" + name + ".counters", "trimswitch-" + name + ".counters", name + ".counters"}) {
            final Path file = SHM.resolve(candidate);
            if (Files.exists(file)) {
                return file;
            }
        }
        return given;
    }
}
