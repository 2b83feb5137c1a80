package io.trimswitch.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * What the build runs to list the classes of the class-data sharing archive: the short virtual-time commands the
 * launcher starts quickly, each once on a tiny workload, so that their classes are in the archive.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {
    }

    public static void main(final String[] args) {
        final String[][] commands = {
            {"scenario", "--packets", "1"},
            {"fabric", "--packets", "1", "--leaves", "2", "--hosts-per-leaf", "2", "--spines", "2"}};
        for (final String[] command : commands) {
            final StringWriter err = new StringWriter();
            final int exit = TrimswitchCommand.execute(command, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            if (exit != 0) {
                System.err.println("trimswitch " + String.join(" ", command) + " failed while training the archive: " + err);
                System.exit(exit);
            }
        }
    }
}
