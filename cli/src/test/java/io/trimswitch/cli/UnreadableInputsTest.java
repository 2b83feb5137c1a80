package io.trimswitch.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A device, a FIFO, a file with no line ends or one that is not text, given where a file is read: one short line, exit 2, at once. */
class UnreadableInputsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void files() throws Exception {
        assertEquals(0, new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start().waitFor());
        Files.writeString(dir.resolve("m.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size 3000\n");
        Files.writeString(dir.resolve("one-line.cm"), "x".repeat(50_000_000));
        Files.write(dir.resolve("binary.cm"), new byte[] {'N', 'o', 'd', 'e', 's', ' ', '8', '\n', (byte) 0xff, (byte) 0xd8, '\n'});
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fabric --matrix /dev/zero                   | /dev/zero: not a regular file (a device or a FIFO is never read)",
        "fabric --matrix DIR/m.cm --topology /dev/zero | /dev/zero: not a regular file (a device or a FIFO is never read)",
        "fabric --matrix DIR/fifo                    | DIR/fifo: not a regular file (a device or a FIFO is never read)",
        "replay --in 0=DIR/fifo                      | DIR/fifo: not a regular file (a device or a FIFO is never read)",
        "replay --in DIR/fifo                        | DIR/fifo: not a regular file (a device or a FIFO is never read)",
        "scenario --config DIR/fifo                  | DIR/fifo: not a regular file (a device or a FIFO is never read)",
        "fabric --matrix DIR/one-line.cm             | DIR/one-line.cm line 1: longer than the 65536 bytes a line of an htsim file may hold",
        "fabric --matrix DIR/binary.cm               | DIR/binary.cm: not text: byte 0xff at line 2"})
    void isRefusedAtOnceInOneShortLine(final String commandLine, final String expected) {
        final String[] args = commandLine.strip().replace("DIR", dir.toString()).split("\\s+");
        final Cli.Result result = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Cli.trimswitch(args), "a hang or a long read");
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), commandLine + "\n" + result.out() + result.err());
        assertEquals("trimswitch: " + expected.replace("DIR", dir.toString()), result.err().strip());
        assertEquals("", result.out());
    }

    @Test
    void aLongWordFromTheFileIsQuotedCutToEightyCharacters() throws IOException {
        final String word = "x".repeat(60_000);
        final String cut = "'" + "x".repeat(80) + "…'";
        Files.writeString(dir.resolve("m.cm"), "Nodes 16\n" + word + " 5\n");
        final Cli.Result unknown = Cli.trimswitch("fabric", "--matrix", dir.resolve("m.cm").toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, unknown.exit(), unknown.err());
        assertTrue(unknown.err().startsWith("trimswitch: " + dir.resolve("m.cm") + " line 2: unknown word " + cut + " ("), unknown.err());
        Files.writeString(dir.resolve("m.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size " + word + "\n");
        final Cli.Result size = Cli.trimswitch("fabric", "--matrix", dir.resolve("m.cm").toString());
        assertEquals("trimswitch: " + dir.resolve("m.cm") + " line 3: size takes a whole number, got " + cut, size.err().strip());
    }
}
