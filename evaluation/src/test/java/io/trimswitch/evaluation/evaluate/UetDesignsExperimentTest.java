package io.trimswitch.evaluation.evaluate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The NDP-and-UET experiment at a tenth of its flows' size: what its table, CSV and plot say. */
class UetDesignsExperimentTest {
    @TempDir
    static Path out;

    @BeforeAll
    static void run() {
        Evaluation.run(out, List.of(new UetDesignsExperiment(200_000)), 2, false, new PrintWriter(new StringWriter()));
    }

    @Test
    void everyRunOfEveryExperimentIsInTheCsvAndEveryFlowCompletes() throws IOException {
        final List<String> lines = Files.readAllLines(out.resolve("uet.csv"));
        assertEquals("experiment,hosts,switches,flows,completed,last_finish_us,trims,nacks,retransmissions", lines.get(0));
        assertEquals(1 + 3 * 2 * 3 + 3 * 2, lines.size(), "NDP and UET with NSCC on three designs, UET with RCCC on two");
        for (final String line : lines.subList(1, lines.size())) {
            // The experiment's label may hold a comma (and is quoted): count from the end.
            final String[] cells = line.split(",");
            assertEquals(cells[cells.length - 6], cells[cells.length - 5], "every flow completes: " + line);
        }
    }

    @Test
    void theTableAndThePlotAreWritten() throws IOException {
        final String table = Files.readString(out.resolve("uet.md"));
        assertTrue(table.startsWith("| experiment | hosts | switches | last finish (µs) | flows done | trims | NACKs | sent again |"), table);
        assertTrue(table.contains("| 16-node incast | UET | tofino |"), table);
        assertTrue(table.contains("| 16-node permutation, a link at 25 % | NDP | dod |"), table);
        assertTrue(table.contains("| 16-node incast | UET RCCC | tofino |"), table);
        assertTrue(table.contains("| outcast and incast | UET RCCC | dod |"), table);
        assertTrue(Files.isRegularFile(out.resolve("runs/uet/uet-incast-rccc-tofino.json")));
        assertTrue(Files.isRegularFile(out.resolve("uet-2.svg")), "the finish and the trims");
        assertTrue(Files.notExists(out.resolve("uet-3.svg")), "NACKs and packets sent again, which repeat the trims, have no panel");
        assertTrue(Files.size(out.resolve("uet.png")) > 10_000);
        assertTrue(Files.isRegularFile(out.resolve("runs/uet/uet-incast-uet-dod.json")));
    }
}
