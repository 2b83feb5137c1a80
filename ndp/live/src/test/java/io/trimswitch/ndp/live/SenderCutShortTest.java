package io.trimswitch.ndp.live;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sender that runs for a while: at its duration, or when stopped, it sends no new data, finishes what it sent, and
 * both ends report the same shortened flows as complete.
 */
@Tag("host-timing")
class SenderCutShortTest {
    private static final long SILENCE = 10_000_000_000L;
    /** Far more than the test's time sends at 0.2 Gb/s. */
    private static final long LONG_FLOW = 1_000_000_000L;

    @Test
    void aSenderWithADurationStopsThereAndBothEndsReportWhatWasDelivered() throws Exception {
        try (LoopbackHosts hosts = new LoopbackHosts(0.2, 2, SILENCE)) {
            final long began = System.nanoTime();
            final HostReport sent = new NdpSendingHost(LoopbackHosts.timedSender(hosts.address(), 1, 4, SILENCE, 300_000_000L, LONG_FLOW,
                LONG_FLOW)).run();
            final long took = System.nanoTime() - began;
            final HostReport received = hosts.awaitReport(30);
            assertCutShortAndMatching(sent, received);
            assertTrue(took >= 300_000_000L && took < 2_300_000_000L, () -> "ran for " + took + " ns");
            // Two flows pulled at 0.2 Gb/s for 0.3 s: 7.5 MB between them at most (a busy machine's cold JVM sends less).
            final long bytes = sent.flows().stream().mapToLong(FlowResult::bytes).sum();
            assertTrue(bytes > 100_000 && bytes < 8_000_000, () -> bytes + " bytes");
        }
    }

    @Test
    void aStoppedSenderFinishesWhatItSentAndReports() throws Exception {
        try (LoopbackHosts hosts = new LoopbackHosts(0.2, 1, SILENCE)) {
            final NdpSendingHost host = new NdpSendingHost(LoopbackHosts.sender(hosts.address(), 1, 1, SILENCE, LONG_FLOW));
            // A thread of its own: the common pool may have one thread, the receiver's.
            final CompletableFuture<HostReport> sending = new CompletableFuture<>();
            Thread.ofPlatform().start(() -> {
                try {
                    sending.complete(host.run());
                } catch (final java.io.IOException | RuntimeException e) {
                    sending.completeExceptionally(e);
                }
            });
            Thread.sleep(200);
            host.stop();
            final HostReport sent = sending.get(5, TimeUnit.SECONDS);
            assertCutShortAndMatching(sent, hosts.awaitReport(30));
        }
    }

    @Test
    void aFlowSentWhollyBeforeTheDurationIsNotCut() throws Exception {
        try (LoopbackHosts hosts = new LoopbackHosts(1, 1, SILENCE)) {
            final HostReport sent = new NdpSendingHost(LoopbackHosts.timedSender(hosts.address(), 1, 2, SILENCE, 5_000_000_000L, 100_000)).run();
            assertTrue(sent.allComplete(), sent::toString);
            assertEquals(100_000, sent.flows().getFirst().bytes());
            assertEquals(100_000, hosts.awaitReport(30).flows().getFirst().bytes());
        }
    }

    @Test
    void aPayloadBeyondA9000ByteMtuIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SenderSettings(new java.net.InetSocketAddress("127.0.0.1", 9), new long[] {1}, 1, 1,
            1, 1, 1, SenderSettings.MAX_PAYLOAD + 1, SenderSettings.TRIMMABLE_DSCP, 0));
        assertEquals(8950, SenderSettings.MAX_PAYLOAD);
        assertEquals(1450, SenderSettings.STANDARD_MTU_PAYLOAD);
    }

    private static void assertCutShortAndMatching(final HostReport sent, final HostReport received) {
        assertTrue(sent.allComplete(), () -> "sender: " + sent);
        assertTrue(received.allComplete(), () -> "receiver: " + received);
        for (int flow = 0; flow < sent.flows().size(); flow++) {
            final long bytes = sent.flows().get(flow).bytes();
            assertTrue(bytes > 0 && bytes < LONG_FLOW, () -> "cut short: " + sent);
            assertEquals(bytes, received.flows().get(flow).bytes(), "the receiver got what the sender says it delivered");
        }
        assertEquals(0, received.malformed(), received::toString);
    }
}
