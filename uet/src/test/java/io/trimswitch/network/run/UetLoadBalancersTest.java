package io.trimswitch.network.run;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.uet.UetSettings;

import io.trimswitch.uet.UetSettings.LoadBalancer;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load balancers on htsim's default 16-host fat tree with one core link slowed to a quarter (htsim's -failed 1):
 * those that listen to ECN marks and NACKs (bitmap, mixed) steer around it, the oblivious one keeps spraying into it.
 */
class UetLoadBalancersTest {
    private static final int MTU = 4086;

    private static HtsimReport run(final LoadBalancer balancer) {
        final StringBuilder matrix = new StringBuilder("Nodes 16\nConnections 16\n");
        for (int host = 0; host < 16; host++) {
            matrix.append(host).append("->").append((host + 5) % 16).append(" start 0 size 1000000\n");
        }
        final HtsimMatrix flows = HtsimMatrix.parse(matrix.toString(), "shift.cm");
        final HtsimExperiment sized = HtsimExperiment.of(null, flows,
            new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, null, null, null, null, 1, null));
        final HtsimExperiment experiment = HtsimExperiment.of(null, flows,
            new HtsimExperiment.Options("ideal", "ideal", "ideal", MTU, UetFabric.queuePackets(sized, false), null, null, null, 1, null));
        final NetworkRun run = UetFabric.network(experiment, UetSettings.DEFAULTS.withLoadBalancer(balancer));
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    @Test
    void balancersThatHearOfTrimsAndMarksAvoidASlowedLink() {
        final Map<LoadBalancer, HtsimReport> reports = new EnumMap<>(LoadBalancer.class);
        for (final LoadBalancer balancer : new LoadBalancer[] {LoadBalancer.OBLIVIOUS, LoadBalancer.REPS, LoadBalancer.BITMAP, LoadBalancer.MIXED}) {
            final HtsimReport report = run(balancer);
            assertEquals(16, report.flowsCompleted(), balancer.label());
            assertEquals(16 * 245, report.deliveredWhole(), balancer.label());
            assertTrue(report.conservation(), balancer.label());
            reports.put(balancer, report);
        }
        // Measured: oblivious 201.9 µs and 189 NACKs, REPS 147.6 µs and 147, bitmap 127.9 µs and 67, mixed 127.6 µs and 63.
        assertTrue(tail(reports.get(LoadBalancer.OBLIVIOUS)) > 180, "oblivious " + tail(reports.get(LoadBalancer.OBLIVIOUS)));
        for (final LoadBalancer listening : new LoadBalancer[] {LoadBalancer.BITMAP, LoadBalancer.MIXED}) {
            final HtsimReport report = reports.get(listening);
            assertTrue(tail(report) > 115 && tail(report) < 135, listening.label() + " " + tail(report));
            assertTrue(UetFabric.uet(report).nacks() < UetFabric.uet(reports.get(LoadBalancer.REPS)).nacks() * 2 / 3,
                listening.label() + " NACKs " + UetFabric.uet(report).nacks() + " against REPS's " + UetFabric.uet(reports.get(LoadBalancer.REPS)).nacks());
            assertTrue(tail(report) < tail(reports.get(LoadBalancer.REPS)) - 10, listening.label() + " ends before REPS");
        }
    }

    private static double tail(final HtsimReport report) {
        return report.flows().stream().mapToDouble(HtsimReport.Flow::fctUs).max().orElseThrow();
    }
}
