package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's start-up rules, checked against a stand-in JDK whose {@code java} prints the flags it was given: short
 * virtual-time commands and NDP hosts start with the quick compiler, the switch and whatever else must keep up with a
 * clock keep the full one, every command may call into libc, scenario and fabric start from their own AOT cache and the
 * others from the class-data sharing archive, and either is passed over when older than the jar. Also the rule that
 * picocli's classes in the tool are of this release.
 */
class LauncherTest {
    private static final String QUICK = "-XX:TieredStopAtLevel=1";

    @TempDir
    Path jdk;

    @TempDir
    Path tree;

    /** The flags the launcher passes to java for {@code args}. */
    private List<String> flags(final String... args) throws IOException, InterruptedException {
        return flagsOf(Path.of("trimswitch"), args);
    }

    /** The flags a copy of the launcher in a tree of its own passes, with the given files in its target folder, in this order. */
    private List<String> flagsWith(final List<String> targetFiles, final String... args) throws IOException, InterruptedException {
        Files.createDirectories(tree.resolve("target"));
        Files.copy(Path.of("trimswitch"), tree.resolve("trimswitch"));
        Files.copy(Path.of("jdk.sh"), tree.resolve("jdk.sh"));
        long modified = System.currentTimeMillis() - 100_000;
        for (final String file : targetFiles) {
            final Path path = tree.resolve("target").resolve(file);
            Files.writeString(path, file);
            Files.setLastModifiedTime(path, java.nio.file.attribute.FileTime.fromMillis(modified));
            modified += 10_000;
        }
        return flagsOf(tree.resolve("trimswitch"), args);
    }

    /** The flags the launcher passes for {@code args} with the caller's JVM options {@code options} (TRIMSWITCH_JAVA_OPTS). */
    private List<String> flagsOfWithOptions(final String options, final String... args) throws IOException, InterruptedException {
        return flagsOf(Path.of("trimswitch"), options, args);
    }

    private List<String> flagsOf(final Path trimswitch, final String... args) throws IOException, InterruptedException {
        return flagsOf(trimswitch, null, args);
    }

    private List<String> flagsOf(final Path trimswitch, final String options, final String... args) throws IOException, InterruptedException {
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        for (final String tool : new String[] {"java", "javac"}) {
            final Path script = jdk.resolve("bin").resolve(tool);
            Files.writeString(script, "#!/bin/sh\nfor arg in \"$@\"; do echo \"$arg\"; done\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        final List<String> command = new ArrayList<>(List.of("sh", trimswitch.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        final ProcessBuilder launcher = new ProcessBuilder(command).redirectErrorStream(true);
        launcher.environment().put("JAVA_HOME", jdk.toString());
        launcher.environment().remove("TRIMSWITCH_JAVA_OPTS");
        if (options != null) {
            launcher.environment().put("TRIMSWITCH_JAVA_OPTS", options);
        }
        final Process process = launcher.start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher did not return");
        assertEquals(0, process.exitValue(), out);
        return out.lines().toList();
    }

    @Test
    void shortVirtualTimeCommandsStartWithTheQuickCompiler() throws Exception {
        assertTrue(flags("scenario").contains(QUICK));
        assertTrue(flags("replay", "--help").contains(QUICK));
        assertTrue(flags("stats").contains(QUICK));
        assertTrue(flags("scenario", "--clock", "virtual").contains(QUICK));
    }

    @Test
    void ndpHostsStartWithTheQuickCompiler() throws Exception {
        assertTrue(flags("host", "--listen", "127.0.0.1:666").contains(QUICK));
    }

    @Test
    void whateverKeepsUpWithAClockKeepsTheFullCompiler() throws Exception {
        assertFalse(flags("scenario", "--clock", "real").contains(QUICK));
        assertFalse(flags("scenario", "--clock=real").contains(QUICK));
        for (final String command : new String[] {"run", "gen", "evaluate"}) {
            assertFalse(flags(command).contains(QUICK), command);
        }
    }

    @Test
    void aLiveSwitchRunsInASmallSerialCollectedHeapAndTheLargeRunsKeepTheJvmsDefaults() throws Exception {
        final List<String> run = flags("run", "-i", "0@veth0");
        for (final String flag : new String[] {"-XX:+UseSerialGC", "-Xms8m", "-Xmn2m", "-XX:TrimNativeHeapInterval=2000"}) {
            assertTrue(run.contains(flag), flag + " in " + run);
        }
        for (final String[] command : new String[][] {{"evaluate"}, {"fabric", "--leaves", "32", "--hosts-per-leaf", "32"}, {"gen"}}) {
            final List<String> flags = flags(command);
            assertFalse(flags.contains("-XX:+UseSerialGC") || flags.contains("-Xms8m") || flags.contains("-Xmn2m"),
                String.join(" ", command) + ": " + flags);
        }
    }

    @Test
    void aSmallFabricStartsWithTheQuickCompilerALargeOneWithTheFull() throws Exception {
        assertTrue(flags("fabric").contains(QUICK));
        assertTrue(flags("fabric", "--leaves", "8", "--hosts-per-leaf", "16", "--spines", "4").contains(QUICK));
        assertTrue(flags("fabric", "--leaves=8", "--hosts-per-leaf=16", "--workload", "incast").contains(QUICK));
        assertFalse(flags("fabric", "--leaves", "8", "--hosts-per-leaf", "32").contains(QUICK));
        assertTrue(flags("fabric", "--leaves", "32", "--hosts-per-leaf", "32", "--packets", "1").contains(QUICK));
        assertFalse(flags("fabric", "--packets=200000").contains(QUICK));
        assertFalse(flags("fabric", "--workload", "all-to-all").contains(QUICK));
        assertFalse(flags("fabric", "--workload=flows").contains(QUICK));
        assertFalse(flags("fabric", "--config", "fabric.yaml").contains(QUICK));
        assertFalse(flags("fabric", "--matrix", "perm.cm").contains(QUICK), "an htsim experiment's size is in its files");
        assertFalse(flags("fabric", "--topology=t.topo", "--matrix=m.cm").contains(QUICK));
        // An htsim experiment's large methods are compiled once each, not inlined again into their callers.
        assertTrue(flags("fabric", "--topology", "t.topo", "--matrix", "m.cm").contains("-XX:FreqInlineSize=100"));
        assertFalse(flags("fabric", "--leaves", "32", "--hosts-per-leaf", "32").contains("-XX:FreqInlineSize=100"));
        assertFalse(flags("fabric").contains("-XX:FreqInlineSize=100"));
        assertTrue(flags("fabric", "--matrix", "perm.cm", "--transport", "uet").contains(QUICK), "UET hosts run with the quick compiler");
        assertTrue(flags("fabric", "--transport=uet", "--matrix=perm.cm").contains(QUICK));
        assertTrue(flags("fabric", "--matrix", "perm.cm", "--transport", "uet").contains("-Xmn2m"), "UET hosts touch a small young generation");
        assertFalse(flags("fabric").contains("-Xmn2m"));
        assertFalse(flags("fabric", "--matrix", "perm.cm").contains("-Xmn2m"));
        assertFalse(flags("fabric", "--matrix", "perm.cm", "--transport", "ndp").contains(QUICK));
        // What the tool itself refuses, the launcher leaves to it, under the full compiler.
        assertFalse(flags("fabric", "--leaves", "-3").contains(QUICK));
        assertFalse(flags("fabric", "--leaves", "08").contains(QUICK));
        assertFalse(flags("fabric", "--packets", "99999999999999999999").contains(QUICK));
    }

    @Test
    void everyCommandMayCallIntoLibcAndRunsTheToolsJar() throws Exception {
        for (final String command : new String[] {"scenario", "run", "stats"}) {
            final List<String> flags = flags(command);
            assertTrue(flags.contains("--enable-native-access=ALL-UNNAMED"), command + ": " + flags);
            assertEquals(command, flags.getLast(), flags.toString());
            assertTrue(flags.get(flags.size() - 2).endsWith("target/trimswitch.jar"), flags.toString());
        }
    }

    @Test
    void scenarioAndFabricStartFromTheirOwnAotCacheTheOthersFromTheArchive() throws Exception {
        final List<String> built = List.of("trimswitch.jar", "trimswitch.jsa", "trimswitch-scenario.aot", "trimswitch-fabric.aot");
        assertTrue(flagsWith(built, "scenario").stream().anyMatch(f -> f.startsWith("-XX:AOTCache=") && f.endsWith("/target/trimswitch-scenario.aot")));
        Files.delete(tree.resolve("trimswitch"));
        Files.delete(tree.resolve("jdk.sh"));
        final List<String> fabric = flagsWith(built, "fabric");
        assertTrue(fabric.stream().anyMatch(f -> f.endsWith("/target/trimswitch-fabric.aot")), fabric.toString());
        assertFalse(fabric.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile")), fabric.toString());
        Files.delete(tree.resolve("trimswitch"));
        Files.delete(tree.resolve("jdk.sh"));
        final List<String> stats = flagsWith(built, "stats");
        assertTrue(stats.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile=") && f.endsWith("/target/trimswitch.jsa")), stats.toString());
        assertFalse(stats.stream().anyMatch(f -> f.startsWith("-XX:AOTCache")), stats.toString());
        assertTrue(stats.containsAll(List.of("-Xlog:aot=off", "-Xlog:cds=off")), "a cache the JVM rejects must not be reported: " + stats);
    }

    @Test
    void aFabricOfUetHostsStartsFromFabricsCacheInASmallYoungGenerationAndTheCallersOptionsStillWin() throws Exception {
        final List<String> built = List.of("trimswitch.jar", "trimswitch.jsa", "trimswitch-scenario.aot", "trimswitch-fabric.aot");
        final List<String> uet = flagsWith(built, "fabric", "--transport=uet", "--matrix", "perm.cm");
        assertTrue(uet.stream().anyMatch(f -> f.endsWith("/target/trimswitch-fabric.aot")), uet.toString());
        assertTrue(uet.contains("-Xmn2m"), uet.toString());
        final List<String> mine = flagsOfWithOptions("-Xmn16m", "fabric", "--transport", "uet");
        assertTrue(mine.lastIndexOf("-Xmn16m") > mine.indexOf("-Xmn2m"), mine.toString());
    }

    @Test
    void aCacheOrArchiveOlderThanTheJarIsPassedOver() throws Exception {
        final List<String> scenario = flagsWith(List.of("trimswitch.jsa", "trimswitch-scenario.aot", "trimswitch.jar"), "scenario");
        assertFalse(scenario.stream().anyMatch(f -> f.startsWith("-XX:AOTCache") || f.startsWith("-XX:SharedArchiveFile")), scenario.toString());
        assertEquals("scenario", scenario.getLast());
        assertTrue(scenario.get(scenario.size() - 2).endsWith("target/trimswitch.jar"), scenario.toString());
    }

    @Test
    void withNothingButTheJarEveryCommandStartsAsJavaJar() throws Exception {
        final List<String> flags = flagsWith(List.of("trimswitch.jar"), "fabric", "--packets", "1");
        assertFalse(flags.stream().anyMatch(f -> f.startsWith("-XX:AOTCache") || f.startsWith("-XX:SharedArchiveFile")), flags.toString());
        assertEquals(List.of("fabric", "--packets", "1"), flags.subList(flags.size() - 3, flags.size()));
    }

    @Test
    void anOlderJavaHomeIsPassedOverForTheNewestJdk25BesideItSayingSoOnce(@TempDir final Path jdks) throws Exception {
        final Path old = fakeJdk(jdks.resolve("jdk-17"), "17.0.15");
        fakeJdk(jdks.resolve("jdk-21"), "21.0.2");
        final Path newest = fakeJdk(jdks.resolve("jdk-25"), "25.0.1");
        final ProcessBuilder launcher = new ProcessBuilder("sh", Path.of("trimswitch").toAbsolutePath().toString(), "stats");
        launcher.environment().put("JAVA_HOME", old.toString());
        launcher.environment().put("TRIMSWITCH_JDKS", jdks.toString());
        final Process process = launcher.start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher did not return");
        assertEquals(0, process.exitValue(), out + err);
        assertEquals("trimswitch: JAVA_HOME is JDK 17 (" + old + "); using JDK 25 at " + newest + "\n", err);
        assertTrue(out.startsWith("ran " + newest.resolve("bin/java")), out);
        assertTrue(out.contains("JAVA_HOME=" + newest + "\n"), "what it starts sees the JDK chosen, and says nothing again: " + out);

        launcher.environment().put("TRIMSWITCH_JDKS", jdks.resolve("none").toString());
        final Process refused = launcher.start();
        final String why = new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(refused.waitFor(30, TimeUnit.SECONDS), "the launcher did not return");
        assertEquals(2, refused.exitValue(), why);
        assertTrue(why.startsWith("trimswitch: needs JDK 25 or newer, found 17 at " + old), why);
    }

    /** A stand-in JDK of {@code version} at {@code home}, whose java says where it ran from and the JAVA_HOME it saw. */
    private static Path fakeJdk(final Path home, final String version) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        for (final String tool : new String[] {"java", "javac"}) {
            final Path script = home.resolve("bin").resolve(tool);
            Files.writeString(script, "#!/bin/sh\necho \"ran $0\"\necho \"JAVA_HOME=$JAVA_HOME\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return home;
    }

    @Test
    void picocliInTheToolIsCompiledForThisRelease() throws IOException {
        // picocli's own jar is built for Java 5, whose classes the JVM verifies again at every start (cli/pom.xml).
        final String resource = "picocli/CommandLine.class";
        assertTrue(String.valueOf(getClass().getClassLoader().getResource(resource)).contains("/target/classes/"),
            "picocli must come from the tool's own classes, not its jar");
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource); DataInputStream data = new DataInputStream(in)) {
            data.readInt();
            data.readUnsignedShort();
            assertEquals(Runtime.version().feature() + 44, data.readUnsignedShort(), "class file major version");
        }
    }
}
