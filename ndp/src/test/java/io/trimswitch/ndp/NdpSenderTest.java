package io.trimswitch.ndp;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NdpSenderTest {
    private static final long RTO = 1_000;

    private final Recorder recorder = new Recorder();

    private NdpSender sender(final int window, final int... sizes) {
        return new NdpSender(Recorder.flows(window, sizes), recorder, recorder, RTO);
    }

    @Test
    void aFlowStartsWithItsInitialWindowThenSendsOnePacketPerPull() {
        final NdpSender sender = sender(3, 5);
        sender.start(0, 0);
        assertEquals(List.of(0, 1, 2), recorder.sequencesOf(NdpFrames.DATA));
        sender.onPull(0, 10);
        sender.onPull(0, 20);
        sender.onPull(0, 30);
        assertEquals(List.of(0, 1, 2, 3, 4), recorder.sequencesOf(NdpFrames.DATA), "a pull past the flow's end sends nothing");
    }

    @Test
    void aNackedPacketIsSentAgainAtTheNextPullBeforeAnyNewOne() {
        final NdpSender sender = sender(2, 4);
        sender.start(0, 0);
        sender.onNack(0, 1, 5);
        sender.onPull(0, 10);
        sender.onPull(0, 20);
        assertEquals(List.of(0, 1, 1, 2), recorder.sequencesOf(NdpFrames.DATA));
        assertEquals(1, sender.retransmissions(0));
        assertEquals(1, sender.nacks(0));
    }

    @Test
    void aNackForAnAcknowledgedPacketOrAReplayedNackResendsNothing() {
        final NdpSender sender = sender(2, 4);
        sender.start(0, 0);
        sender.onAck(0, 0, 3);
        sender.onNack(0, 0, 4);
        sender.onNack(0, 1, 5);
        sender.onNack(0, 1, 6);
        sender.onPull(0, 10);
        sender.onPull(0, 20);
        assertEquals(List.of(0, 1, 1, 2), recorder.sequencesOf(NdpFrames.DATA), "packet 1 once more, then new data");
        assertEquals(3, sender.nacks(0), "every NACK is counted as a header seen");
        assertEquals(1, sender.nackedResends(0), "one NACK made a retransmission");
    }

    @Test
    void aQuietRetransmissionTimeoutResendsOneUnacknowledgedPacketAndArmsAgain() {
        final NdpSender sender = sender(2, 2);
        sender.start(0, 0);
        assertEquals(List.of(new Recorder.Wakeup("rto", RTO, 0)), recorder.wakeups("rto"));
        sender.timeout(0, RTO);
        assertEquals(List.of(0, 1, 0), recorder.sequencesOf(NdpFrames.DATA));
        assertEquals(2 * RTO, recorder.wakeups("rto").get(1).time());
        sender.onPull(0, RTO + 1);
        assertEquals(List.of(0, 1, 0, 1), recorder.sequencesOf(NdpFrames.DATA));
        assertEquals(2, sender.retransmissions(0));
    }

    @Test
    void aFinishedFlowsTimeoutSendsNothingAndDisarms() {
        final NdpSender sender = sender(2, 2);
        sender.start(0, 0);
        sender.onAck(0, 0, 1);
        assertFalse(sender.finished(0));
        sender.onAck(0, 1, 2);
        assertTrue(sender.finished(0));
        sender.timeout(0, RTO);
        assertEquals(2, recorder.ofKind(NdpFrames.DATA).size());
        assertEquals(1, recorder.wakeups("rto").size());
    }
}
