package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;

import java.nio.file.Files;
import java.nio.file.Path;

/** An output a command would write only after its run: checked before the run, so a mistake costs nothing. */
final class OutputFiles {
    private OutputFiles() {
    }

    /** A file option's value {@code -}: standard output, as in most Unix tools. */
    static boolean isStandardOutput(final Path file) {
        return file != null && "-".equals(file.toString());
    }

    static void requireWritable(final String option, final Path file) {
        if (isStandardOutput(file)) {
            return;
        }
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

    /**
     * A folder a command writes into, made if missing. An empty value would be the working directory, which is what an
     * unset shell variable gives rather than what anyone means: it is refused, as is a file or a path that cannot be made.
     */
    static void requireFolder(final String option, final Path folder) {
        if (folder.toString().isEmpty()) {
            throw new ConfigException(option + " '': names no directory");
        }
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new ConfigException(option + " " + folder + ": a file, not a directory");
        }
        Path existing = folder.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw new ConfigException(option + " " + folder + ": cannot be made: " + existing + " is a file");
        }
        if (!Files.isWritable(existing)) {
            throw new ConfigException(option + " " + folder + ": cannot write: no permission");
        }
    }
}
