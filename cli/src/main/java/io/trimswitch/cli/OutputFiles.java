package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;

import java.nio.file.Files;
import java.nio.file.Path;

/** An output a command would write only after its run: checked before the run, so a mistake costs nothing. */
final class OutputFiles {
    private OutputFiles() {
    }

    static void requireWritable(final String option, final Path file) {
        if (Files.isDirectory(file)) {
            throw new ConfigException(option + " " + file + ": cannot write: a directory; name a file");
        }
        final Path folder = file.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new ConfigException(option + " " + file + ": cannot write: its folder " + folder + " does not exist");
        }
        if (Files.exists(file) ? !Files.isWritable(file) : !Files.isWritable(folder)) {
            throw new ConfigException(option + " " + file + ": cannot write: no permission");
        }
    }
}
