package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A folder a command writes: one run at a time, no earlier experiment's files mixed in, nothing half-made left by a signal. */
class OutputFoldersTest {
    @TempDir
    Path dir;

    /** The tool in a process of its own, as a user starts it from a shell. */
    private static Process start(final Path err, final String... args) throws IOException {
        final String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new java.util.ArrayList<>(List.of(javaBin, "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"), TrimswitchCommand.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile()).start();
    }

    private static String mark(final Path folder) throws IOException {
        final Path mark = folder.resolve(OutputFolder.MARK);
        return Files.exists(mark) ? Files.readString(mark).strip() : "";
    }

    private static List<String> names(final Path folder) throws IOException {
        try (Stream<Path> list = Files.list(folder)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aSecondRunIntoTheSameFolderIsRefusedNamingTheFirstAndASignalledRunRemovesWhatItMade() throws Exception {
        final Path out = dir.resolve("results");
        final Process first = start(dir.resolve("err"), "evaluate", "--only", "sweep", "--jobs", "1", "--quiet", "--out", out.toString());
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!mark(out).contains("pid") && first.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(first.isAlive(), "host too slow: the first run ended before the second started");
            assertEquals("trimswitch evaluate, pid " + first.pid(), mark(out));
            final Cli.Result second = trimswitch("evaluate", "--only", "response", "--quiet", "--out", out.toString());
            assertEquals(TrimswitchCommand.EXIT_USAGE, second.exit(), second.err());
            assertEquals("trimswitch: --out " + out + ": in use by trimswitch evaluate, pid " + first.pid()
                + "; wait for it to end or pick another folder", second.err().strip());
        } finally {
            first.destroy();
        }
        assertTrue(first.waitFor(60, TimeUnit.SECONDS), "SIGTERM ends the run");
        final String err = Files.readString(dir.resolve("err"));
        assertTrue(err.contains("trimswitch: interrupted: removed the unfinished run's files from " + out), err);
        assertFalse(Files.exists(out), "the folder the run made is gone with it");
    }

    @Test
    void aSignalledReplayRemovesItsUnfinishedCaptureAndFolder() throws Exception {
        final Path caps = dir.resolve("caps");
        assertEquals(0, trimswitch("scenario", "--mechanism", "tofino", "--no-ideal", "--packets", "1000", "--pcap-dir", caps.toString()).exit());
        final Path out = dir.resolve("out.pcapng");
        final Path outDir = dir.resolve("out");
        // At a dilation of a million, a thousand packets take minutes of host time: the run is stopped well before it ends.
        final Process replay = start(dir.resolve("err"), "replay", "--in", "1=" + caps.resolve("tofino/port01-rx.pcap"), "--clock", "real",
            "--dilation", "1000000", "--out", out.toString(), "--out-dir", outDir.toString());
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(mark(outDir).contains("pid") && Files.exists(out)) && replay.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(replay.isAlive(), "host too slow: the replay ended before it was stopped");
        } finally {
            replay.destroy();
        }
        assertTrue(replay.waitFor(60, TimeUnit.SECONDS), "SIGTERM ends the run");
        final String err = Files.readString(dir.resolve("err"));
        assertTrue(err.contains("trimswitch: interrupted: removed the unfinished " + out), err);
        assertTrue(err.contains("trimswitch: interrupted: removed the unfinished run's files from " + outDir), err);
        assertFalse(Files.exists(out), "no half-written capture is left");
        assertFalse(Files.exists(outDir), "nor the folder the run made");
    }

    @Test
    void whatARunMakesHasExplicitModesWhateverTheUmask() throws Exception {
        final Path out = dir.resolve("private-umask");
        final String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", "umask 077 && exec \"$0\" \"$@\"", javaBin,
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), TrimswitchCommand.class.getName(),
            "scenario", "--mechanism", "tofino", "--no-ideal", "--packets", "3", "--pcap-dir", out.toString()));
        final Process run = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(dir.resolve("umask-err").toFile()).start();
        assertTrue(run.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "host too slow: a 3-packet scenario took over 120 s");
        assertEquals(0, run.exitValue(), Files.readString(dir.resolve("umask-err")));
        try (Stream<Path> made = Files.walk(out)) {
            for (final Path path : made.toList()) {
                final String expected = Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--";
                assertEquals(expected, PosixFilePermissions.toString(Files.getPosixFilePermissions(path)), path.toString());
            }
        }
    }

    @Test
    void anEarlierRunsFilesAreClearedNeverMixedWithTheNewOnes() throws IOException {
        final Path out = dir.resolve("pcaps");
        assertEquals(0, trimswitch("scenario", "--mechanism", "tofino", "--no-ideal", "--packets", "3", "--pcap-dir", out.toString()).exit());
        assertTrue(Files.exists(out.resolve("tofino")));
        final Cli.Result again = trimswitch("scenario", "--mechanism", "dod", "--no-ideal", "--packets", "3", "--pcap-dir", out.toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(List.of(OutputFolder.MARK, "dod"), names(out), "only the new run's files");
        assertTrue(again.err().contains("--pcap-dir " + out + ": cleared 1 file(s) an earlier 'trimswitch scenario' left"), again.err());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(OutputFolder.MARK))));
        // A file put there since is not the earlier run's: it is named, and kept.
        Files.writeString(out.resolve("notes.txt"), "mine");
        final Cli.Result third = trimswitch("scenario", "--mechanism", "dod", "--no-ideal", "--packets", "3", "--pcap-dir", out.toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, third.exit(), third.err());
        assertTrue(third.err().contains("holds 1 file(s) no earlier 'trimswitch scenario' made (notes.txt)"), third.err());
        assertEquals(List.of(OutputFolder.MARK, "dod", "notes.txt"), names(out));
    }

    @Test
    void aFolderHoldingFilesNoRunOfTheCommandMadeIsRefusedNamingThem() throws IOException {
        final Path out = Files.createDirectory(dir.resolve("notes"));
        Files.writeString(out.resolve("thesis.tex"), "mine");
        final Cli.Result result = trimswitch("scenario", "--packets", "3", "--no-ideal", "--pcap-dir", out.toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), result.err());
        assertEquals("trimswitch: --pcap-dir " + out + ": holds 1 file(s) no earlier 'trimswitch scenario' made (thesis.tex);"
            + " empty it or pick another folder", result.err().strip());
        assertEquals(List.of("thesis.tex"), names(out), "left as it was");
        // Another command's folder is not this one's to clear either.
        final Path replays = dir.resolve("replays");
        assertEquals(0, trimswitch("scenario", "--mechanism", "tofino", "--no-ideal", "--packets", "3", "--pcap-dir", replays.toString()).exit());
        final Cli.Result replay = trimswitch("replay", "--in", "1=" + replays.resolve("tofino/port01-rx.pcap"), "--out-dir", replays.toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, replay.exit(), replay.err());
        assertTrue(replay.err().contains("no earlier 'trimswitch replay' made (tofino)"), replay.err());
    }

    @Test
    void replayRefusesAnExistingOutputFileUnlessToldToOverwriteIt() throws IOException {
        final Path caps = dir.resolve("caps");
        assertEquals(0, trimswitch("scenario", "--mechanism", "tofino", "--no-ideal", "--packets", "3", "--pcap-dir", caps.toString()).exit());
        final String input = "1=" + caps.resolve("tofino/port01-rx.pcap");
        final Path out = Files.writeString(dir.resolve("out.pcapng"), "an earlier capture");
        final Cli.Result refused = trimswitch("replay", "--in", input, "--out", out.toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, refused.exit(), refused.err());
        assertEquals("trimswitch: --out " + out + ": exists; pick a new name, or add --overwrite to replace it", refused.err().strip());
        assertEquals("an earlier capture", Files.readString(out));
        assertEquals(0, trimswitch("replay", "--in", input, "--out", out.toString(), "--overwrite").exit());
        assertTrue(Files.size(out) > 100, "replaced by the new capture");
        final Path fresh = dir.resolve("fresh.pcapng");
        assertEquals(0, trimswitch("replay", "--in", input, "--out", fresh.toString()).exit());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
    }
}
