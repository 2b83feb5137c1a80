package io.trimswitch.network;

import io.trimswitch.report.ReportJson;
import io.trimswitch.report.RunReport;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void aPermutationAcrossTheFabricCompletesWithEveryPacketAccountedFor() {
        final NetworkReport report = run(settings(spec -> { }));
        System.out.println(ReportJson.toJson(report.tiers()) + report.completionUs() + " " + report.run());
        assertTrue(report.conservation());
        assertEquals(16, report.flowsCompleted());
        assertEquals(0, report.completionUs().incomplete());
        assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader() + report.dropped());
        assertEquals(0, report.run().leakedBuffers());
    }
}
