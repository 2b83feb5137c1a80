package io.trimswitch.cli;

import io.trimswitch.cli.Cli;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EvaluateCommandTest {
    @TempDir
    static Path shared;
    static Path results;
    static String output;

    @BeforeAll
    static void evaluateEverything() {
        results = shared.resolve("results");
        final Cli.Result result = trimswitch("evaluate", "--out", results.toString(), "--quiet");
        assertEquals(0, result.exit(), result.err());
        output = result.out();
    }

    private static List<String> csv(final String name) throws IOException {
        return Files.readAllLines(results.resolve(name));
    }

    private static long files(final Path dir, final String suffix) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(path -> path.toString().endsWith(suffix)).count();
        }
    }

    @Test
    void everyExperimentWritesOneJsonPerRun() throws IOException {
        assertEquals(15, files(results.resolve("runs/mechanisms"), ".json"));
        assertEquals(256, files(results.resolve("runs/sweep"), ".json"));
        assertEquals(1632 + 2, files(results.resolve("runs/robustness"), ".json"));
        assertEquals(3, files(results.resolve("runs/response"), ".json"));
        assertEquals(106, files(results.resolve("runs/sensitivity"), ".json"));
        assertEquals(36, files(results.resolve("runs/summary"), ".json"));
        assertEquals(12, files(results.resolve("runs/fabric"), ".json"));
        assertEquals(24, files(results.resolve("runs/uet"), ".json"));
    }

    @Test
    void everyExperimentWritesItsTableWithItsColumns() throws IOException {
        assertEquals("workload,mechanism,sent,whole,headers,dropped,trims,trims_vs_ideal,max_dod_queue,header_p50_ns,header_p99_ns,last_header_ns,goodput_mean_gbps",
            csv("mechanisms.csv").get(0));
        assertEquals(1 + 15, csv("mechanisms.csv").size());
        assertEquals("senders,mechanism,goodput_mean_gbps,goodput_min_gbps,goodput_max_gbps,jain_fairness,trims,trims_vs_ideal,max_dod_queue,dod_overflows,losses,in_flight_at_end",
            csv("sweep.csv").get(0));
        assertEquals(1 + 256, csv("sweep.csv").size());
        assertEquals("senders,pipeline,port,state,start_us,end_us", csv("response-states.csv").get(0));
        assertTrue(csv("response-states.csv").size() > 10);
        assertEquals(1 + 104, csv("sensitivity.csv").size());
        assertEquals(2 + 36, Files.readAllLines(results.resolve("summary.md")).size());
        assertEquals("fabric,workload,leaf,spine,flows,completed,fct_p50_us,fct_p90_us,fct_p99_us,fct_max_us,goodput_mean_gbps,goodput_min_gbps,"
            + "leaf_trims,spine_trims,max_dod_queue,header_queue_drops,dropped,retransmissions", csv("fabric.csv").get(0));
        assertEquals(1 + 12, csv("fabric.csv").size());
        assertEquals("experiment,hosts,switches,flows,completed,last_finish_us,trims,nacks,retransmissions", csv("uet.csv").get(0));
        assertEquals(1 + 24, csv("uet.csv").size());
        assertTrue(Files.readString(results.resolve("summary.json")).contains("\"goodputVsIdeal\""));
    }

    @Test
    void everyFigureHasAPngAndSvgsAndTheIndexShowsThem() throws IOException {
        final String index = Files.readString(results.resolve("index.html"));
        for (final String png : new String[] {"mechanisms.png", "sweep.png", "response-18.png", "response-32.png", "response-64.png",
            "sensitivity-32.png", "sensitivity-64.png", "fabric.png", "uet.png"}) {
            assertTrue(Files.size(results.resolve(png)) > 10_000, png);
            assertTrue(index.contains("<img src=\"" + png + "\""), png);
        }
        assertTrue(files(results, ".svg") >= 3 + 3 + 6 + 6);
        assertTrue(Files.readString(results.resolve("sweep-1.svg")).contains("<svg"));
        assertTrue(index.contains("<h2>Summary</h2>"));
    }

    @Test
    void overSenderCountsAndSeedsThePapersLoopSometimesLosesControlOfItsDodQueuesTheStableLoopOnlyAtTheFloorAndTofino2Never()
        throws IOException {
        final List<String> rows = csv("robustness.csv");
        assertEquals("transport,mechanism,senders,seed,max_dod_queue,trims_vs_ideal,goodput_vs_ideal,header_p99_ns", rows.get(0));
        assertEquals(1 + 2 * 5 * 17 * 8, rows.size());
        final Map<String, Integer> floor = new HashMap<>();
        for (final String row : rows.subList(1, rows.size())) {
            final String[] cells = row.split(",");
            if (cells[1].equals("tofino-floor")) {
                floor.put(cells[0] + "/" + cells[2] + "/" + cells[3], Integer.parseInt(cells[4]));
            }
        }
        final Map<String, Integer> worst = new HashMap<>();
        int tofinoLost = 0;
        for (final String row : rows.subList(1, rows.size())) {
            final String[] cells = row.split(",");
            final int maxDod = Integer.parseInt(cells[4]);
            worst.merge(cells[1], maxDod, Math::max);
            if (cells[1].equals("tofino2")) {
                assertTrue(maxDod <= 250, "tofino2 lost control: " + row);
            } else if (cells[1].equals("tofino") && maxDod > 250) {
                tofinoLost++;
            } else if (cells[1].equals("tofino-t1-96")) {
                final int atFloor = floor.get(cells[0] + "/" + cells[2] + "/" + cells[3]);
                assertTrue(maxDod <= Math.max(250, atFloor), "the stable loop lost control above the floor of " + atFloor + ": " + row);
            }
        }
        assertTrue(tofinoLost > 0, "the paper's loop loses control on some seeds");
        assertTrue(worst.get("tofino-backlog") < worst.get("tofino"), "the backlog loop's worst queue is smaller: " + worst);
        final String table = Files.readString(results.resolve("robustness.md"));
        assertTrue(table.contains("| ndp | tofino2 | 0 of 136 (0 %) | 0 |"), table);
        assertTrue(table.contains("| ndp | tofino | ") && table.contains("| open-loop | 64 |"), table);
        assertTrue(Files.size(results.resolve("robustness-timeline.png")) > 10_000);
    }

    @Test
    void inTheSweepTofinoKeepsTheDodQueueBelowDodsForEveryNFrom18() throws IOException {
        final Map<String, Integer> maxDod = new HashMap<>();
        for (final String line : csv("sweep.csv").subList(1, 257)) {
            final String[] cells = line.split(",");
            maxDod.put(cells[0] + "/" + cells[1], Integer.parseInt(cells[8]));
        }
        for (int senders = 18; senders <= 64; senders++) {
            final int tofino = maxDod.get(senders + "/tofino");
            final int dod = maxDod.get(senders + "/dod");
            assertTrue(tofino < dod, senders + " senders: tofino " + tofino + " vs dod " + dod);
        }
        for (int senders = 1; senders <= 16; senders++) {
            assertEquals(0, maxDod.get(senders + "/tofino"), senders + " senders deflect nothing");
        }
        for (int senders = 18; senders <= 64; senders++) {
            // Reading the queue's depth, with room left for what the stale read misses, tofino2 deflects less than dod.
            assertTrue(maxDod.get(senders + "/tofino2") < maxDod.get(senders + "/dod"), senders + " senders: tofino2 " + maxDod.get(senders + "/tofino2"));
        }
    }

    @Test
    void acrossTheFabricEveryFlowCompletesAndOnlyTheOversubscribedFabricTrimsAPermutation() throws IOException {
        for (final String line : csv("fabric.csv").subList(1, 13)) {
            final String[] cells = line.split(",");
            assertEquals(cells[4], cells[5], "every flow completes: " + line);
            final long trims = Long.parseLong(cells[12]) + Long.parseLong(cells[13]);
            if (cells[1].equals("permutation")) {
                assertEquals(cells[0].equals("full bisection"), trims == 0, "sprayed over full bisection, a permutation fits: " + line);
            } else {
                assertTrue(trims > 0, "an incast is trimmed: " + line);
            }
        }
        final String report = Files.readString(results.resolve("runs/fabric/fabric-16spines-incast-tofino-ideal.json"));
        assertTrue(report.contains("\"tier\" : \"spine\"") && report.contains("\"conservation\" : true"), "a network's report per tier");
    }

    @Test
    void theSummaryPutsTofinoCloseToIdealInTheWorstCase() throws IOException {
        final String tofino = Files.readAllLines(results.resolve("summary.md")).stream()
            .filter(line -> line.startsWith("| shift | 1000 | ndp | tofino |")).findFirst().orElseThrow();
        final String[] cells = tofino.split("\\|");
        assertEquals(1.0, Double.parseDouble(cells[5].trim()), 0.05, "goodput vs ideal");
        assertEquals(1.0, Double.parseDouble(cells[6].trim()), 0.05, "trims vs ideal");
        assertEquals(0, Long.parseLong(cells[8].trim()), "losses");
        assertTrue(output.contains("| shift | 1000 | ndp | tofino |"), "the summary is printed");
        assertTrue(output.contains("sweep") && output.contains("256 runs"), output);
        final String dod = Files.readAllLines(results.resolve("summary.md")).stream()
            .filter(line -> line.startsWith("| shift | 1000 | ndp | dod |")).findFirst().orElseThrow();
        assertTrue(Double.parseDouble(dod.split("\\|")[5].trim()) < 0.5, "without the control loop NDP flows finish far later: " + dod);
    }

    @Test
    void onlyRunsTheNamedExperiments() throws IOException {
        final Path dir = shared.resolve("only");
        final Cli.Result result = trimswitch("evaluate", "--out", dir.toString(), "--only", "response", "--quiet");
        assertEquals(0, result.exit(), result.err());
        assertTrue(Files.exists(dir.resolve("response-18.png")));
        assertFalse(Files.exists(dir.resolve("sweep.csv")));
        assertFalse(Files.exists(dir.resolve("runs/sweep")));
    }

    @Test
    void anUnknownExperimentIsOneClearLine() {
        final Cli.Result result = trimswitch("evaluate", "--out", shared.resolve("x").toString(), "--only", "sweep,fairness");
        assertEquals(2, result.exit());
        assertEquals("trimswitch: unknown experiment 'fairness': expected one of mechanisms, sweep, robustness, response, sensitivity, summary, fabric, uet", result.err().strip());
    }

    @Test
    void anUnwritableDirectoryIsOneClearLine() throws IOException {
        final Path file = Files.writeString(shared.resolve("not-a-dir"), "x");
        final Cli.Result result = trimswitch("evaluate", "--out", file.resolve("results").toString(), "--only", "summary");
        assertEquals(2, result.exit());
        assertEquals(1, result.err().strip().lines().count(), result.err());
        assertEquals("trimswitch: --out " + file.resolve("results") + ": cannot be made: " + file + " is a file", result.err().strip());
    }
}
