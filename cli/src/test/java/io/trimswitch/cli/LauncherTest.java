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
 * clock keep the full one, and every command may call into libc. Also the rule that picocli's classes in the tool are of this release.
 */
class LauncherTest {
    private static final String QUICK = "-XX:TieredStopAtLevel=1";

    @TempDir
    Path jdk;

    /** The flags the launcher passes to java for {@code args}. */
    private List<String> flags(final String... args) throws IOException, InterruptedException {
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        for (final String tool : new String[] {"java", "javac"}) {
            final Path script = jdk.resolve("bin").resolve(tool);
            Files.writeString(script, "#!/bin/sh\nfor arg in \"$@\"; do echo \"$arg\"; done\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        final List<String> command = new ArrayList<>(List.of("sh", Path.of("trimswitch").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        final ProcessBuilder launcher = new ProcessBuilder(command).redirectErrorStream(true);
        launcher.environment().put("JAVA_HOME", jdk.toString());
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
        for (final String command : new String[] {"run", "gen", "evaluate", "fabric"}) {
            assertFalse(flags(command).contains(QUICK), command);
        }
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
