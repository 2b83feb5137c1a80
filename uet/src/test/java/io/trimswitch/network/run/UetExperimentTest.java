package io.trimswitch.network.run;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.topology.FatTree;
import io.trimswitch.uet.UetSettings;
import io.trimswitch.uet.UetReport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ultra Ethernet hosts on htsim's default 16-host fat tree (100 Gb/s, 1 µs links, 4150-byte packets as uet-htsim
 * sends them): the numbers derived from the network, and what a flow, an incast and a permutation do.
 */
class UetExperimentTest {
    private static final int MTU = 4086;

    private static String matrix(final String... flows) {
        return "Nodes 16\nConnections " + flows.length + "\n" + String.join("\n", flows) + "\n";
    }

    private static HtsimExperiment experiment(final String matrix, final Integer paths, final Integer failed) {
        final HtsimExperiment.Options first = new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, null, null, paths, null, failed, null);
        final HtsimExperiment sized = HtsimExperiment.of(null, HtsimMatrix.parse(matrix, "m.cm"), first);
        return HtsimExperiment.of(null, HtsimMatrix.parse(matrix, "m.cm"),
            new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, UetFabric.queuePackets(sized, false), null, paths, null, failed, null));
    }

    private static HtsimReport run(final HtsimExperiment experiment, final UetSettings uet) {
        final NetworkRun run = UetFabric.network(experiment, uet);
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    @Test
    void theNetworksNumbersAreUetHtsims() {
        final HtsimReport report = run(experiment(matrix("0->13 start 0 size 2000000"), null, null), UetSettings.DEFAULTS);
        final UetReport uet = UetFabric.uet(report);
        assertEquals(14.02272, uet.rttUs(), 1e-6);
        assertEquals(43, uet.bdpPackets());
        assertEquals(10.51704, uet.targetDelayUs(), 1e-6);
        assertEquals(9, uet.ecnLowPackets());
        assertEquals(35, uet.ecnHighPackets());
        assertEquals(100.656, uet.rtoUs(), 1e-3);
        assertEquals("uet", report.transport());
    }

    @Test
    void theSwitchesSendHeadersAndControlBeforeDataAsUetHtsimsQueuesDo() {
        // uet-htsim's composite queue serves 100,000 headers to one data packet: on a 1024-host incast, serving one data
        // packet after every ten headers dropped twice its headers and ended 7 % before it.
        final HtsimExperiment experiment = experiment(matrix("0->13 start 0 size 2000000"), null, null);
        assertEquals(10, experiment.settings(0).fabric().headersPerData(), "an htsim experiment's own switches, for NDP");
        assertEquals(0, io.trimswitch.simulator.Transports.named("uet").switchSettings(experiment.settings(0), 2, UetSettings.DEFAULTS).fabric().headersPerData());
    }

    @Test
    void oneFlowRunsAtLineRate() {
        final HtsimReport report = run(experiment(matrix("0->13 start 0 size 2000000"), null, null), UetSettings.DEFAULTS);
        assertTrue(report.conservation());
        assertEquals(1, report.flowsCompleted());
        assertEquals(490, report.deliveredWhole(), "2,000,000 bytes in 4086-byte payloads");
        assertEquals(0, report.deliveredHeader());
        // 490 packets at 100 Gb/s take 162.7 µs; a window's round trip and the last ACK's way back add the rest.
        final double fct = report.flows().get(0).fctUs();
        assertTrue(fct > 170 && fct < 182, fct + " µs");
    }

    @Test
    void anIncastIsTrimmedAboveAndAtTheLastHopAndEveryFlowCompletes() {
        final String[] flows = new String[8];
        for (int host = 0; host < 8; host++) {
            flows[host] = host + "->15 start 0 size 500000";
        }
        final HtsimReport report = run(experiment(matrix(flows), null, null), UetSettings.DEFAULTS);
        assertTrue(report.conservation());
        assertEquals(8, report.flowsCompleted());
        final UetReport uet = UetFabric.uet(report);
        assertTrue(uet.nacks() > 0, "the receiver's downlink trims");
        assertEquals(uet.nacks(), report.deliveredHeader(), "each header NACKed");
        // Eight 100 Gb/s senders in two pods meet at the receiver's pod: its two aggregation-to-rack links trim, then its own link.
        assertTrue(uet.lastHopNacks() > 0 && uet.lastHopNacks() < uet.nacks(), uet.lastHopNacks() + " of " + uet.nacks() + " at the last hop");
        assertTrue(uet.ecnMarked() > 0);
        assertEquals(0, uet.timeouts());
        // uet-htsim gives this incast a tail of 362 µs and 398 NACKs (8 × 123 packets need 80.7 µs on the last link alone:
        // the first windows overflow, and NSCC backs off more than it must).
        final double slowest = report.flows().stream().mapToDouble(HtsimReport.Flow::fctUs).max().orElseThrow();
        assertTrue(slowest > 340 && slowest < 380, slowest + " µs");
        assertTrue(uet.nacks() > 360 && uet.nacks() < 440, uet.nacks() + " NACKs");
        // Every packet arrives whole once: retransmissions replace exactly the trimmed ones.
        assertEquals(8 * 123, report.deliveredWhole());
    }

    @Test
    void theSameRunTwiceGivesTheSameReport() {
        final HtsimExperiment experiment = experiment(matrix("0->15 start 0 size 400000", "1->15 start 0 size 400000", "4->15 start 0 size 400000"),
            null, null);
        final NetworkRun run = UetFabric.network(experiment, UetSettings.DEFAULTS);
        final HtsimReport first = NetworkReportBuilder.build(run, run.run(), experiment);
        final HtsimReport second = NetworkReportBuilder.build(run, run.run(), experiment);
        assertEquals(first.flows(), second.flows());
        assertEquals(UetFabric.uet(first), UetFabric.uet(second));
    }

    @Test
    void everyLoadBalancerCompletesAPermutation() {
        final String[] flows = new String[16];
        for (int host = 0; host < 16; host++) {
            flows[host] = host + "->" + (host + 5) % 16 + " start 0 size 400000";
        }
        for (final UetSettings.LoadBalancer balancer : UetSettings.LoadBalancer.values()) {
            final HtsimReport report = run(experiment(matrix(flows), 128, null), UetSettings.DEFAULTS.withLoadBalancer(balancer).withEntropies(128));
            assertEquals(16, report.flowsCompleted(), balancer.label());
            assertTrue(report.conservation(), balancer.label());
            assertEquals(16 * 98, report.deliveredWhole(), balancer.label());
        }
    }

    @Test
    void queuesCountWholePacketsForUetAndMtusOfPayloadForNdp() {
        final HtsimMatrix flows = HtsimMatrix.parse(matrix("0->13 start 0 size 20000"), "m.cm");
        final HtsimExperiment whole = HtsimExperiment.of(null, flows, new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, 20, null, null, null,
            null, null, null, true));
        final HtsimExperiment payload = HtsimExperiment.of(null, flows, new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, 20, null, null,
            null, null, null));
        // htsim_uec's -q 20: 20 packets of 4150 bytes, the one being sent among them; 20 × 4086 bytes hold 19 such packets.
        assertEquals(19, whole.settings(0).fabric().dataQueuePackets());
        assertEquals(2 * 20 * 4150 / 64, whole.settings(0).fabric().headerQueuePackets());
        assertEquals(18, payload.settings(0).fabric().dataQueuePackets());
        assertEquals(43, UetFabric.queuePackets(whole, true));
        assertEquals(44, UetFabric.queuePackets(payload, false));
    }

    @Test
    void endUsStopsTheRunWithTheUnfinishedFlowsListedAndEveryPacketAccountedFor() {
        final HtsimMatrix flows = HtsimMatrix.parse(matrix("0->13 start 0 size 40000", "1->14 start 0 size 2000000"), "m.cm");
        final HtsimExperiment experiment = HtsimExperiment.of(null, flows, new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, 43, null, null,
            null, null, null, 60.0, true));
        final HtsimReport report = run(experiment, UetSettings.DEFAULTS);
        assertEquals(1, report.flowsCompleted());
        assertEquals(1, report.completionUs().incomplete());
        assertEquals(1, report.unfinished().size());
        assertEquals(1, report.unfinished().get(0).src());
        assertTrue(report.unfinishedText().contains("unfinished at 60.0 µs    1 of 2 flows"), report.unfinishedText());
        assertTrue(report.conservation(), "packets still on their way at the end are counted as such");
        assertTrue(report.dropped() > 0);
    }

    @Test
    void aLinkSlowedByFailKeepsItsQueuesDrainTime() {
        final HtsimExperiment experiment = experiment(matrix("0->13 start 0 size 20000"), 128, 1);
        final NetworkRun run = UetFabric.network(experiment, UetSettings.DEFAULTS.withEntropies(128));
        final FatTree.Shape shape = experiment.shape();
        final int core = shape.tors() + shape.aggs();
        // htsim slows the first core's link down to the first aggregation switch to a quarter, with a quarter of the queue.
        assertEquals(0.25, experiment.rateLeft(core, 0));
        // 43 packets of queue, the one being sent among them: 42 wait.
        assertEquals(42, experiment.settings(core).fabric().dataQueuePackets());
        // A quarter of 43 packets' bytes holds 10 whole ones, the one being sent among them.
        assertEquals(9, run.node(core).assembly().port(0).dataQueue().capacity());
        assertEquals(42, run.node(core).assembly().port(1).dataQueue().capacity());
        assertEquals(1.0, experiment.rateLeft(core + 1, 0));
    }
}
