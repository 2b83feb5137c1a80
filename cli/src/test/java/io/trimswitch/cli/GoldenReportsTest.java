package io.trimswitch.cli;

import io.trimswitch.cli.Cli;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The virtual-time results are the project's memory: these reports, and the tables printed beside them, were
 * written by earlier builds and every build must write them again to the byte. A change that moves a report changes
 * the model; one that moves only a table changes what a user reads.
 */
class GoldenReportsTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "default | scenario",
        "incast-open-loop | scenario --transport open-loop --pattern incast:64->16 --mechanism ideal,mod,dod,tofino --no-ideal",
        "mod16-32-seed5 | scenario --transport open-loop --pattern mod16:32 --mechanism tofino --seed 5"})
    void theReportIsTheOneEarlierBuildsWrote(final String name, final String command) throws IOException {
        final Path json = dir.resolve(name + ".json");
        final List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--json", json.toString()));
        final Cli.Result run = Cli.trimswitch(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        final String expected;
        try (InputStream golden = new GZIPInputStream(getClass().getResourceAsStream("/golden/" + name + ".json.gz"))) {
            expected = new String(golden.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertSame(name, command, "report", expected, Files.readString(json));
        final String table;
        try (InputStream golden = getClass().getResourceAsStream("/golden/" + name + ".txt")) {
            table = new String(golden.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertSame(name, command, "table", table, run.out());
    }

    private static void assertSame(final String name, final String command, final String what, final String expected, final String actual) {
        if (!expected.equals(actual)) {
            final String[] want = expected.split("\n", -1);
            final String[] got = actual.split("\n", -1);
            for (int line = 0; line < Math.min(want.length, got.length); line++) {
                if (!want[line].equals(got[line])) {
                    fail(name + ": the " + what + " differs from the golden one at line " + (line + 1) + ": expected '" + want[line].strip()
                        + "', got '" + got[line].strip() + "' (`trimswitch " + command + "`)");
                }
            }
            fail(name + ": the " + what + " has " + got.length + " lines, the golden one " + want.length);
        }
    }
}
