package io.trimswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the build runs to list the classes of the class-data sharing archive: the short virtual-time commands the
 * launcher starts quickly, each once on a tiny workload, so that their classes are in the archive. The scenario captures
 * its ports (it loads every class a scenario without captures does, and those of the captures), and the replay replays
 * what it captured, into a pcapng and per-port pcaps, in a folder removed afterwards.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {
    }

    public static void main(final String[] args) throws IOException {
        final Path work = Files.createTempDirectory("trimswitch-archive-training");
        try {
            final String captures = work.resolve("captures").toString();
            final String port0 = captures + "/tofino/port00-rx.pcap";
            final String port1 = captures + "/tofino/port01-rx.pcap";
            final String[][] commands = {
                {"scenario", "--packets", "1", "--pcap-dir", captures},
                {"replay", "--in", "0=" + port0, "--in", "1=" + port1, "--out", work.resolve("out.pcapng").toString(),
                    "--out-dir", work.resolve("out").toString()},
                {"fabric", "--packets", "1", "--leaves", "2", "--hosts-per-leaf", "2", "--spines", "2"}};
            for (final String[] command : commands) {
                run(command);
            }
        } finally {
            removeAll(work);
        }
    }

    private static void run(final String[] command) {
        final StringWriter err = new StringWriter();
        final int exit = TrimswitchCommand.execute(command, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        if (exit != 0) {
            System.err.println("trimswitch " + String.join(" ", command) + " failed while training the archive: " + err);
            System.exit(exit);
        }
    }

    private static void removeAll(final Path folder) throws IOException {
        final List<Path> paths;
        try (Stream<Path> walk = Files.walk(folder)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (final Path path : paths) {
            try {
                Files.delete(path);
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot remove " + path + " after training the archive", e);
            }
        }
    }
}
