package io.trimswitch.network.htsim;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.run.NetworkReportBuilder;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.config.ConfigException;
import io.trimswitch.simulator.VirtualTimeEngine;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** htsim's experiments run across fat trees: every flow completes, and each option changes what htsim's would. */
class HtsimExperimentTest {
    /** A permutation of 16 hosts across htsim's default 4-ary fat tree (3 tiers, 4 pods), 20 packets of 1500 bytes each. */
    private static final String PERMUTATION = """
        Nodes 16
        Connections 16
        """ + permutationLines(16, 30_000);

    private static String permutationLines(final int nodes, final int bytes) {
        final StringBuilder lines = new StringBuilder();
        for (int host = 0; host < nodes; host++) {
            lines.append(host).append("->").append((host + 5) % nodes).append(" id ").append(host + 1).append(" start 0 size ").append(bytes).append('\n');
        }
        return lines.toString();
    }

    private static HtsimReport run(final HtsimTopology topology, final String matrix, final HtsimExperiment.Options options) {
        final HtsimExperiment experiment = HtsimExperiment.of(topology, HtsimMatrix.parse(matrix, "m.cm"), options);
        final NetworkRun run = NetworkRun.of(experiment);
        final VirtualTimeEngine.Outcome outcome = run.run();
        return NetworkReportBuilder.build(run, outcome, experiment);
    }

    private static HtsimExperiment.Options options(final String mechanism, final Integer paths, final String routing, final Integer failed) {
        return new HtsimExperiment.Options(mechanism, mechanism, mechanism, 1500, 16, 12, paths, routing, failed, null);
    }

    @Test
    void aPermutationAcrossHtsimsDefaultTreeCompletesAndReportsEachFlowsTimes() {
        final HtsimReport report = run(null, PERMUTATION, options("ideal", null, null, null));
        assertTrue(report.conservation());
        assertEquals(16, report.flowsCompleted());
        assertEquals(16 * 20, report.deliveredWhole(), "30,000 bytes are 20 packets of 1500");
        assertTrue(report.topology().startsWith("3-tier fat tree: 16 hosts, 8 racks of 2, 4 pods, 2 aggregation switches per pod, 4 core switches"),
            report.topology());
        final HtsimReport.Flow first = report.flows().get(0);
        assertEquals(0, first.src());
        assertEquals(5, first.dst());
        assertEquals(1, first.id());
        assertEquals(0.0, first.startUs());
        assertEquals(first.finishUs(), first.fctUs());
        // A window of 12 packets of 1564 bytes, six links of 1 µs each way, then the pulls of the last 8.
        assertTrue(first.fctUs() > 18 && first.fctUs() < 24, first.fctUs() + " µs");
        assertEquals(List.of("tor", "agg", "core"), report.tiers().stream().map(NetworkReport.TierReport::tier).toList());
    }

    @Test
    void theSameExperimentGivesTheSameFlowTimesWhicheverRunItIs() {
        final HtsimExperiment experiment = HtsimExperiment.of(null, HtsimMatrix.parse(PERMUTATION, "m.cm"), options("tofino", null, null, null));
        final NetworkRun run = NetworkRun.of(experiment);
        final List<HtsimReport.Flow> once = NetworkReportBuilder.build(run, run.run(), experiment).flows();
        assertEquals(once, NetworkReportBuilder.build(run, run.run(), experiment).flows());
    }

    @Test
    void everyTierRunsAnyMechanismAndEcmpKeepsAFlowOnOnePath() {
        for (final String mechanism : new String[] {"ideal", "mod", "dod", "tofino", "tofino2"}) {
            final HtsimReport report = run(null, PERMUTATION, options(mechanism, null, "ecmp", null));
            assertTrue(report.conservation(), mechanism);
            assertEquals(16, report.flowsCompleted(), mechanism);
            assertEquals(mechanism, report.config().getCoreMechanism());
        }
    }

    @Test
    void fewerPathsAndSlowedLinksMakeAnIncastNoFasterAndCutLinksAreAvoided() {
        final StringBuilder incast = new StringBuilder("Nodes 16\nConnections 8\n");
        for (int host = 8; host < 16; host++) {
            incast.append(host).append("->0 start 0 size 150000\n");
        }
        final double all = run(null, incast.toString(), options("ideal", null, null, null)).completionUs().max();
        final double one = run(null, incast + "", options("ideal", 1, null, null)).completionUs().max();
        assertTrue(one >= all, one + " µs on one path each, " + all + " µs on all");
        final HtsimReport slowed = run(null, PERMUTATION, options("ideal", null, null, 4));
        assertTrue(slowed.topology().endsWith("4 links at 25 %"), slowed.topology());
        final HtsimReport cut = run(null, PERMUTATION.replace("Connections 16", "Connections 16\nFailures 1")
            + "failure switch_type AGG switch_id 0 link_id 1\n", options("ideal", null, null, null));
        assertEquals(16, cut.flowsCompleted());
        assertTrue(cut.drops().isEmpty(), "no path crosses the cut link: " + cut.drops());
    }

    @Test
    void anIncastsNearSenderGetsNoMoreThanItsTurnAsUnderHtsimsFairPacers() {
        // Host 1 shares host 0's rack, hosts 2 and 3 its pod, the rest are in other pods: round trips of 4, 8 and 12 µs.
        final StringBuilder incast = new StringBuilder("Nodes 16\nConnections 15\n");
        for (int host = 1; host < 16; host++) {
            incast.append(host).append("->0 start 0 size 300000\n");
        }
        final HtsimReport report = run(null, incast.toString(), new HtsimExperiment.Options("ideal", "ideal", "ideal", 1500, 16, 12, null, null, null, null));
        assertEquals(15, report.flowsCompleted());
        final double near = report.flows().get(0).fctUs();
        final double last = report.flows().stream().mapToDouble(HtsimReport.Flow::fctUs).max().orElseThrow();
        // Pulled in arrival order, host 1 would ask again three times as often as the far hosts and end at 0.64 of the
        // last; pulled in turn it ends at 0.92 (htsim_ndp: 355 µs of 396, 0.90).
        assertTrue(near > 0.85 * last && last > 379, near + " and " + last + " µs");
    }

    @Test
    void htsimsDataQueueCountsThePacketBeingSentSoOneFewerWaitsHere() {
        final HtsimExperiment experiment = HtsimExperiment.of(null, HtsimMatrix.parse(PERMUTATION, "m.cm"), options("ideal", null, null, null));
        // 16 packets of 1500 bytes are 24,000 bytes: 15 whole frames of 1564 bytes, one of them on the wire.
        assertEquals(14, experiment.settings(0).fabric().dataQueuePackets());
    }

    @Test
    void aTriggerStartsItsFlowsWhenTheFlowsBeforeItEnd() {
        final String chain = """
            Nodes 16
            Connections 4
            Triggers 2
            0->9 id 1 start 0 size 15000 recv_done_trigger 1
            1->10 id 2 start 3 size 15000 recv_done_trigger 1
            2->11 id 3 trigger 1 size 15000 send_done_trigger 2
            3->12 id 4 trigger 2 size 15000
            trigger id 1 barrier count 2
            trigger id 2 oneshot
            """;
        final List<HtsimReport.Flow> flows = run(null, chain, options("ideal", null, null, null)).flows();
        assertEquals(3.0, flows.get(1).startUs());
        assertEquals(Math.max(flows.get(0).finishUs(), flows.get(1).finishUs()), flows.get(2).startUs(), "the barrier waits for both");
        assertEquals(flows.get(2).finishUs(), flows.get(3).startUs());
        assertNotNull(flows.get(3).fctUs());
        assertNull(run(null, chain.replace("count 2", "count 3"), options("ideal", null, null, null)).flows().get(2).startUs(),
            "a barrier that never fills starts nothing");
    }

    @Test
    void aTwoTierTreeWithBundlesRuns() {
        final HtsimTopology tree = HtsimTopology.parse(HtsimTopologyTest.THREE_TIERS, "tree.topo");
        final String matrix = "Nodes 64\nConnections 64\n" + permutationLines(64, 15_000);
        final HtsimReport report = run(tree, matrix, options("tofino", 3, null, null));
        assertEquals(64, report.flowsCompleted());
        assertTrue(report.conservation());
        final HtsimReport leafSpine = run(HtsimTopology.parse(HtsimTopologyTest.LEAF_SPINE, "ls.topo"),
            "Nodes 32\nConnections 32\n" + permutationLines(32, 15_000), options("ideal", null, null, 1));
        assertEquals(32, leafSpine.flowsCompleted());
    }

    /** A packet is the MTU and 64 bytes of headers: the largest MTU the check lets through makes a jumbo frame, which runs. */
    @Test
    void theLargestMtuAllowedRunsAndOneMoreIsRefusedByItsOwnName() {
        final HtsimReport largest = run(null, PERMUTATION, new HtsimExperiment.Options(null, null, null, HtsimExperiment.MAX_MTU, null, null, null, null,
            null, null));
        assertEquals(16, largest.flowsCompleted());
        assertEquals("--mtu must be 64..8954, got 8955", assertThrows(ConfigException.class, () -> run(null, PERMUTATION,
            new HtsimExperiment.Options(null, null, null, 8955, null, null, null, null, null, null))).getMessage());
    }

    @Test
    void aMatrixThatDoesNotFitTheTreeIsRefused() {
        final HtsimTopology tree = HtsimTopology.parse(HtsimTopologyTest.LEAF_SPINE, "ls.topo");
        assertEquals("m.cm: Nodes 16 differs from the topology's Nodes 32 (ls.topo)",
            assertThrows(ConfigException.class, () -> run(tree, PERMUTATION, HtsimExperiment.Options.DEFAULTS)).getMessage());
        assertEquals("m.cm: flow 0->1 of 99999999 bytes makes 66667 packets of 1500 bytes; at most 65535 per flow (raise --mtu)",
            assertThrows(ConfigException.class, () -> run(null, "Nodes 16\nConnections 1\n0->1 start 0 size 99999999\n", options("ideal", null, null, null)))
                .getMessage());
        assertEquals("--mtu must be 64..8954, got 10000", assertThrows(ConfigException.class, () -> run(null, PERMUTATION,
            new HtsimExperiment.Options(null, null, null, 10_000, null, null, null, null, null, null))).getMessage());
    }
}
