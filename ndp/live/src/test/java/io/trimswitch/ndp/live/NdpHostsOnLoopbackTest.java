package io.trimswitch.ndp.live;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A live sender and receiver over loopback: every byte of every flow arrives, and both ends report its FCT. */
@Tag("host-timing")
class NdpHostsOnLoopbackTest {
    private static final long SILENCE = 10_000_000_000L;

    @Test
    void threeParallelFlowsSprayedOverThreePathsDeliverEveryByteAndReportTheirCompletionTimes() throws Exception {
        final long[] sizes = {300_000, 123_457, 1};
        try (LoopbackHosts hosts = new LoopbackHosts(0.5, sizes.length, SILENCE)) {
            final HostReport sent = new NdpSendingHost(LoopbackHosts.sender(hosts.address(), 1, 3, SILENCE, sizes)).run();
            final HostReport received = hosts.awaitReport(30);
            assertTrue(sent.allComplete(), () -> "sender: " + sent);
            assertTrue(received.allComplete(), () -> "receiver: " + received);
            assertEquals(List.of(300_000L, 123_457L, 1L), sent.flows().stream().map(FlowResult::bytes).toList());
            assertEquals(List.of(300_000L, 123_457L, 1L), received.flows().stream().map(FlowResult::bytes).toList(),
                "the receiver counts each data byte once, whatever was retransmitted");
            for (final FlowResult flow : sent.flows()) {
                assertTrue(flow.fctNanos() > 0 && flow.goodputGbps() > 0, flow::toString);
            }
            // Nothing trims on loopback: no header, so no NACK.
            assertEquals(0, received.flows().stream().mapToLong(FlowResult::headers).sum());
            assertEquals(0, received.foreign() + received.truncated() + received.malformed());
            // The receiver paces its pulls at 0.5 Gb/s: 424 kB cannot arrive in less than about 6.8 ms.
            final long slowest = sent.flows().stream().mapToLong(FlowResult::fctNanos).max().orElseThrow();
            assertTrue(slowest > 6_000_000, () -> "faster than the pull rate allows: " + slowest + " ns");
        }
    }
}
