package io.trimswitch.network.run;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole networks: every packet accounted for, every flow complete, the same JSON for the same seed. */
class NetworkRunTest {
    static NetworkSettings settings(final Consumer<NetworkSpec> edit) {
        final NetworkSpec spec = new NetworkSpec();
        spec.workload.packets = 200;
        edit.accept(spec);
        return NetworkSettings.of(spec);
    }

    static NetworkReport run(final NetworkSettings settings) {
        final NetworkRun network = NetworkRun.of(settings);
        return NetworkReportBuilder.build(network, network.run(), settings);
    }

    static void assertConserved(final NetworkReport report) {
        assertTrue(report.conservation(), "conservation");
        assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader() + report.dropped());
        assertEquals(report.control().sent(), report.control().delivered() + report.control().dropped());
        assertEquals(0, report.run().leakedBuffers());
        assertEquals(0, report.completionUs().incomplete(), "every flow completes");
    }

    static RunReport.PortReport port(final NetworkReport report, final String name, final int id) {
        final NetworkReport.SwitchReport sw = report.switches().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
        return sw.ports().stream().filter(p -> p.id() == id).findFirst().orElse(null);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"permutation", "incast", "all-to-all", "flows"})
    void everyWorkloadCompletesWithEveryPacketAccountedFor(final String kind) {
        final NetworkReport report = run(settings(spec -> {
            spec.workload.kind = kind;
            spec.workload.packets = kind.equals("all-to-all") ? 20 : 200;
            spec.workload.load = 0.6;
        }));
        assertConserved(report);
        assertTrue(report.flowsCompleted() > 0);
        assertEquals(report.flows().size(), report.flowsCompleted());
    }

    @Test
    void theSameSeedGivesTheSameJsonAndAnotherSeedAnotherRun() {
        final NetworkSettings settings = settings(spec -> spec.workload.kind = "incast");
        final NetworkRun network = NetworkRun.of(settings);
        final String first = ReportJson.toJson(NetworkReportBuilder.build(network, network.run(), settings));
        final String again = ReportJson.toJson(NetworkReportBuilder.build(network, network.run(), settings));
        final String fresh = ReportJson.toJson(run(settings));
        assertEquals(first, again, "a second run of the same network");
        assertEquals(first, fresh, "a new network of the same settings");
        assertNotEquals(first, ReportJson.toJson(run(settings(spec -> {
            spec.workload.kind = "incast";
            spec.workload.seed = 2;
        }))));
    }

    @Test
    void sprayingUsesEverySpineFromEveryLeafAndEcmpOneSpinePerFlow() {
        // One flow from rack 0 to rack 1: its data leaves leaf 0 on uplinks 4..7.
        final Consumer<NetworkSpec> oneFlow = spec -> {
            spec.workload.kind = "incast";
            spec.workload.racks = 1;
            spec.workload.sendersPerRack = 1;
        };
        final NetworkReport sprayed = run(settings(oneFlow));
        final NetworkReport hashed = run(settings(oneFlow.andThen(spec -> spec.routing = "ecmp")));
        int hashedUplinks = 0;
        for (int spine = 0; spine < 4; spine++) {
            final RunReport.PortReport up = port(sprayed, "leaf1", 4 + spine);
            assertTrue(up != null && up.txPackets() >= 200 / 4, "spine " + spine + " carries a quarter of the packets");
            final RunReport.PortReport hashedUp = port(hashed, "leaf1", 4 + spine);
            hashedUplinks += hashedUp != null && hashedUp.txPackets() >= 200 ? 1 : 0;
        }
        assertEquals(1, hashedUplinks, "ECMP keeps the flow on one spine");
        assertConserved(sprayed);
        assertConserved(hashed);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spray", "ecmp"})
    void aFailedLinkCarriesNothingAndEveryFlowStillCompletes(final String routing) {
        final NetworkReport report = run(settings(spec -> {
            spec.routing = routing;
            final NetworkSpec.LinkEnd down = new NetworkSpec.LinkEnd();
            down.leaf = 0;
            down.spine = 1;
            spec.topology.failedLinks.add(down);
        }));
        assertConserved(report);
        assertEquals(null, port(report, "leaf0", 4 + 1), "leaf 0's uplink to spine 1 sends nothing");
        assertEquals(null, port(report, "spine1", 0), "spine 1's port to leaf 0 sends nothing");
        assertEquals("spine1 (down)", report.switches().get(0).links().get(5));
        assertTrue(report.drops().isEmpty(), "no packet was routed onto the failed link: " + report.drops());
        for (final int spine : new int[] {0, 2, 3}) {
            assertTrue(port(report, "leaf0", 4 + spine).txPackets() > 0, "leaf 0 uses spine " + spine);
        }
    }

    @Test
    void anIncastAcrossRacksIsTrimmedWhereItConvergesAndEveryHeaderArrives() {
        final NetworkReport report = run(settings(spec -> {
            spec.workload.kind = "incast";
            spec.workload.racks = 3;
            spec.workload.packets = 300;
        }));
        assertConserved(report);
        assertEquals(0, report.dropped());
        // A header is never cut twice, so every trim reaches its receiver as one header.
        assertEquals(report.trims().total(), report.deliveredHeader());
        assertTrue(port(report, "leaf0", 0).trimPackets() > 0, "host 0's port trims");
        // The rest of the leaves carry the senders' traffic up without trimming it.
        for (final String leaf : new String[] {"leaf1", "leaf2", "leaf3"}) {
            final NetworkReport.SwitchReport sw = report.switches().stream().filter(s -> s.name().equals(leaf)).findFirst().orElseThrow();
            assertEquals(0, sw.trims().total(), leaf);
        }
        final NetworkReport.TierReport leaves = report.tiers().get(0);
        final NetworkReport.TierReport spines = report.tiers().get(1);
        assertEquals(report.trims().total(), leaves.trims().total() + spines.trims().total(), "tiers add up");
        assertEquals(report.switches().stream().filter(s -> s.tier().equals("spine")).mapToLong(s -> s.trims().total()).sum(),
            spines.trims().total());
    }

    @Test
    void oversubscribedUplinksTrimAtTheLeavesOnTheWayUp() {
        final NetworkReport report = run(settings(spec -> {
            spec.topology.uplinkRateGbps = 25;
            spec.leaf.mechanism = "ideal";
        }));
        assertConserved(report);
        final NetworkReport.TierReport leaves = report.tiers().get(0);
        assertTrue(leaves.trims().ideal() > 0, "4 × 100 Gb/s of hosts into 4 × 25 Gb/s of uplinks");
        assertTrue(report.completionUs().p50() > 200 * 0.12 * 4, "a flow gets at most a quarter of its host's rate");
    }

    @Test
    void aSingleSwitchWithoutSpinesCarriesEveryHost() {
        final NetworkReport report = run(settings(spec -> {
            spec.topology.leaves = 1;
            spec.topology.spines = 0;
            spec.topology.hostsPerLeaf = 8;
        }));
        assertConserved(report);
        assertEquals(1, report.switches().size());
        assertEquals(8, report.flowsCompleted());
    }

    @Test
    void theShippedExampleIsTheScaleRunAndEveryFlowCompletes() {
        final NetworkSettings example = NetworkSettings.load(java.nio.file.Path.of("..", "config", "examples", "fabric.yaml"));
        assertEquals(128, example.topology().hosts());
        assertEquals("tofino", example.leafMechanism());
        final NetworkReport report = run(example);
        assertConserved(report);
        assertEquals(128, report.flowsCompleted());
        // 16 hosts share 4 uplinks: a flow gets at most a quarter of its 100 Gb/s.
        assertTrue(report.goodput().meanGbps() < 25 && report.goodput().meanGbps() > 12, "goodput " + report.goodput());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spray", "ecmp"})
    void aLinkThatFailsMidRunLosesWhatItCarriesUntilDetectedAndEveryFlowStillCompletes(final String routing) {
        final Consumer<NetworkSpec> failing = spec -> {
            spec.routing = routing;
            spec.workload.packets = 1000;
            final NetworkSpec.LinkEnd link = new NetworkSpec.LinkEnd();
            link.leaf = 0;
            link.spine = 1;
            link.atUs = 40;
            spec.topology.failedLinks.add(link);
            spec.topology.failureDetectionUs = 10;
        };
        final NetworkReport report = run(settings(failing));
        assertConserved(report);
        assertTrue(report.topology().endsWith("failed: leaf0-spine1 at 40 µs"), report.topology());
        final long lost = report.drops().getOrDefault("linkDown", 0L);
        assertTrue(lost > 0, "packets on the link or sent onto it in the 10 µs before detection are lost: " + report.drops());
        // Once the failure is known, spine 1 has no route to leaf 0 for what other leaves sprayed to it just before.
        final long unrouted = report.drops().getOrDefault("noRoute", 0L);
        assertEquals(lost + unrouted, report.dropped(), "nothing else is lost: " + report.drops());
        for (final NetworkReport.SwitchReport sw : report.switches()) {
            if (!sw.name().equals("spine1")) {
                assertEquals(0L, sw.drops().getOrDefault("noRoute", 0L), "only spine 1 lacks a route, not " + sw.name());
            }
        }
        final RunReport.PortReport up = port(report, "leaf0", 4 + 1);
        final RunReport.PortReport working = port(report, "leaf0", 4 + 2);
        assertTrue(up.txPackets() > 0 && up.txPackets() < working.txPackets() / 2,
            "leaf 0 sends on its uplink to spine 1 until the failure is detected, then no more: " + up.txPackets() + " vs " + working.txPackets());
        // Detected at once, only what was on the link is lost.
        final NetworkReport atOnce = run(settings(failing.andThen(spec -> spec.topology.failureDetectionUs = 0)));
        assertConserved(atOnce);
        assertTrue(atOnce.drops().getOrDefault("linkDown", 0L) < lost, atOnce.drops() + " vs " + report.drops());
        final NetworkSettings settings = settings(failing);
        final NetworkRun network = NetworkRun.of(settings);
        final String first = ReportJson.toJson(NetworkReportBuilder.build(network, network.run(), settings));
        assertEquals(first, ReportJson.toJson(NetworkReportBuilder.build(network, network.run(), settings)), "a failure repeats run after run");
    }

    @Test
    void poissonFlowsDrawTheirSizesFromTheCsvAndLeaveTheirRack(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
        throws java.io.IOException {
        final java.nio.file.Path sizes = dir.resolve("sizes.csv");
        java.nio.file.Files.writeString(sizes, "# packets\n10\n50\n200\n");
        final NetworkReport report = run(settings(spec -> {
            spec.workload.kind = "flows";
            spec.workload.flowSizes = sizes.toString();
            spec.workload.load = 0.5;
            spec.workload.durationUs = 200;
        }));
        assertConserved(report);
        final java.util.Set<Integer> seen = new java.util.TreeSet<>();
        for (final RunReport.FlowReport flow : report.flows()) {
            seen.add(flow.size());
            assertNotEquals(flow.src() / 4, flow.dst() / 4, "a flow leaves its rack: " + flow.src() + " -> " + flow.dst());
        }
        assertEquals(java.util.Set.of(10, 50, 200), seen);
        // 16 hosts offering half of 100 Gb/s for 200 µs: about 16 × 0.5 × 200 µs / (mean 86.7 packets × 0.12 µs) flows.
        assertTrue(report.flows().size() > 100 && report.flows().size() < 220, report.flows().size() + " flows");
    }
}
