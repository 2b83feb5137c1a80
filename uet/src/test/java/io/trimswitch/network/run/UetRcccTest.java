package io.trimswitch.network.run;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.htsim.HtsimTopology;
import io.trimswitch.uet.UetSettings;
import io.trimswitch.uet.UetSettings.CongestionControl;
import io.trimswitch.uet.UetReport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ultra Ethernet hosts paced by their receivers' credit (RCCC) on htsim's default 16-host fat tree, beside what
 * htsim_uec gives the same runs (-receiver_cc_only, -sender_cc -receiver_cc).
 */
class UetRcccTest {
    /** A two-tier tree of 32 hosts, oversubscribed 2:1 at its racks. */
    private static final String LEAF_SPINE = """
        nodes 32
        tiers 2
        podsize 32
        tier 0
        downlink_speed_gbps 100
        radix_down 8
        radix_up 4
        oversubscribed 2
        downlink_latency_ns 1000
        tier 1
        downlink_speed_gbps 100
        radix_down 4
        downlink_latency_ns 1000
        """;

    private static final int MTU = 4086;

    private static HtsimReport run(final String matrix, final CongestionControl cc) {
        return run(null, matrix, UetSettings.DEFAULTS.withCc(cc));
    }

    private static HtsimReport run(final HtsimTopology topology, final String matrix, final UetSettings settings) {
        final HtsimExperiment.Options first = new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, null, null, null, null, null, null);
        final HtsimExperiment sized = HtsimExperiment.of(topology, HtsimMatrix.parse(matrix, "m.cm"), first);
        final HtsimExperiment experiment = HtsimExperiment.of(topology, HtsimMatrix.parse(matrix, "m.cm"),
            new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, UetFabric.queuePackets(sized, true), null, null, null, null, null));
        final NetworkRun run = UetFabric.network(experiment, settings.withLoadBalancer(UetSettings.LoadBalancer.MIXED));
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    private static String incast() {
        final StringBuilder m = new StringBuilder("Nodes 16\nConnections 8\n");
        for (int host = 0; host < 8; host++) {
            m.append(host).append("->15 id ").append(host + 1).append(" start 0 size 500000\n");
        }
        return m.toString();
    }

    private static double tail(final HtsimReport report) {
        return report.flows().stream().mapToDouble(HtsimReport.Flow::fctUs).max().orElseThrow();
    }

    @Test
    void oneFlowRunsAtLineRateOnCreditItsReceiverPulls() {
        final HtsimReport report = run("Nodes 16\nConnections 1\n0->13 id 1 start 0 size 2000000\n", CongestionControl.RECEIVER);
        assertEquals(1, report.flowsCompleted());
        // htsim_uec -receiver_cc_only: 177.4 µs.
        final double fct = report.flows().get(0).fctUs();
        assertTrue(fct > 175 && fct < 180, fct + " µs");
        final UetReport.Rccc rccc = UetFabric.uet(report).rccc();
        assertEquals("receiver", rccc.cc());
        assertFalse(rccc.oversubscribedCc(), "htsim's default tree is not oversubscribed");
        // 490 packets of 4150 bytes, less the first 1.5 BDPs spent speculatively: the rest arrives in pulls of 64 quanta.
        assertTrue(rccc.creditBytes() >= 490L * 4150 - 3 * 45 * 4150 && rccc.pulls() > 100, rccc.toString());
    }

    @Test
    void anIncastPacedByItsReceiverEndsWhenHtsimUecsDoes() {
        for (final CongestionControl cc : new CongestionControl[] {CongestionControl.RECEIVER, CongestionControl.BOTH}) {
            final HtsimReport report = run(incast(), cc);
            assertTrue(report.conservation());
            assertEquals(8, report.flowsCompleted(), cc.label());
            // htsim_uec: a tail of 340.3 µs both ways, 303 and 302 NACKs, 406 and 410 PULLs.
            final double slowest = tail(report);
            assertTrue(slowest > 330 && slowest < 350, cc.label() + ": " + slowest + " µs");
            final UetReport uet = UetFabric.uet(report);
            assertTrue(uet.nacks() > 240 && uet.nacks() < 370, cc.label() + ": " + uet.nacks() + " NACKs");
            assertTrue(uet.rccc().pulls() > 330 && uet.rccc().pulls() < 490, cc.label() + ": " + uet.rccc().pulls() + " pulls");
            assertEquals(0, uet.timeouts(), cc.label());
        }
    }

    /** As htsim_uec on its 2:1 tree: -receiver_cc_only and -receiver_cc alone turn it on, -sender_cc -receiver_cc does not. */
    @Test
    void theOversubscribedReceiverCcRunsOnAnOversubscribedTreeWhereUetHtsimRunsIt() {
        final HtsimTopology tree = HtsimTopology.parse(LEAF_SPINE, "ls.topo");
        final StringBuilder m = new StringBuilder("Nodes 32\nConnections 8\n");
        for (int host = 0; host < 8; host++) {
            m.append(host).append("->").append(31 - host).append(" id ").append(host + 1).append(" start 0 size 200000\n");
        }
        final UetSettings receiver = UetSettings.DEFAULTS.withCc(CongestionControl.RECEIVER);
        final UetSettings both = UetSettings.DEFAULTS.withCc(CongestionControl.BOTH);
        final UetSettings.OversubscribedMode off = UetSettings.OversubscribedMode.OFF;
        final Object[][] cases = {{receiver, true}, {both, true}, {both.withOversubscribedCc(off), false}, {receiver.withOversubscribedCc(off), false}};
        for (final Object[] c : cases) {
            final HtsimReport report = run(tree, m.toString(), (UetSettings) c[0]);
            assertEquals(8, report.flowsCompleted(), c[0].toString());
            assertEquals(c[1], UetFabric.uet(report).rccc().oversubscribedCc(), c[0].toString());
        }
        final HtsimReport byHand = run(null, incast(), receiver.withOversubscribedCc(UetSettings.OversubscribedMode.ON));
        assertTrue(UetFabric.uet(byHand).rccc().oversubscribedCc(), "on by hand on a tree that is not oversubscribed, as -oversubscribed_cc");
        assertEquals(8, byHand.flowsCompleted());
    }

    @Test
    void theSendersOwnControlReportsNoCredit() {
        final HtsimReport report = run(incast(), CongestionControl.SENDER);
        assertNull(UetFabric.uet(report).rccc());
        assertEquals(8, report.flowsCompleted());
    }
}
