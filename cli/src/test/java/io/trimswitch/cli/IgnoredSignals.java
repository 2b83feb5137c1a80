package io.trimswitch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this test's process ignores a signal, which every process it starts inherits: nohup ignores SIGHUP, and a
 * non-interactive shell ignores SIGINT and SIGQUIT for what it starts in the background. A tool started so rightly keeps
 * ignoring them (the JVM installs no handler for a signal ignored at its start), so a test that sends one skips there.
 */
final class IgnoredSignals {
    static final int SIGHUP = 1;
    static final int SIGINT = 2;

    private IgnoredSignals() {
    }

    /** Whether {@code signal} is ignored here: its bit in SigIgn of /proc/self/status; false where that cannot be read. */
    static boolean ignored(final int signal) throws IOException {
        final Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(line -> line.startsWith("SigIgn:"))
            .anyMatch(line -> (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (signal - 1))) != 0);
    }
}
