package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UetSenderTest {
    private static final long RTT = 14_022_720;
    private static final int PACKET = 4150;
    private static final long RTO = 100_000_000;
    private final NsccParameters nscc = new NsccParameters(RTT, 100_000_000_000L, NsccParameters.defaultTargetDelay(RTT), PACKET, 4086);
    private final Recorder out = new Recorder();

    private UetSender sender(final int windowPackets, final int... sizes) {
        final EntropyChoice[] balancers = new EntropyChoice[sizes.length];
        for (int flow = 0; flow < sizes.length; flow++) {
            balancers[flow] = EntropyChoice.of(UetSettings.LoadBalancer.OBLIVIOUS, 4, flow);
        }
        return new UetSender(Recorder.flows(sizes), nscc, (long) windowPackets * PACKET, balancers, out, out, RTO);
    }

    private static void sendWhilePermitted(final UetSender sender, final long now) {
        while (sender.canSend(0)) {
            sender.sendNext(0, now);
        }
    }

    @Test
    void sendsWhatTheWindowHoldsAndAsksForAnAckAtItsEdge() {
        final UetSender sender = sender(3, 10);
        assertFalse(sender.canSend(0), "not before it starts");
        sender.start(0, 0);
        assertEquals(List.of(0), out.ready);
        sendWhilePermitted(sender, 0);
        final List<Recorder.Frame> data = out.of("data");
        assertEquals(3, data.size());
        assertEquals(List.of(false, true, true), data.stream().map(Recorder.Frame::flag).toList());
        assertEquals(List.of(RTO), out.timers);
    }

    @Test
    void aConnectionSendsEachMessageOnceQueuedAndCompletesEachWhenItsPacketsAreAcknowledged() {
        final EntropyChoice[] balancers = {EntropyChoice.of(UetSettings.LoadBalancer.OBLIVIOUS, 4, 0)};
        final UetMessages messages = new UetMessages(new int[][] {{3, 5}}, new long[][] {{0, 1_000_000}});
        final UetSender sender = new UetSender(messages, nscc, 10L * PACKET, balancers, out, out, RTO);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        final List<Recorder.Frame> first = out.of("data");
        assertEquals(List.of(0, 1, 2), first.stream().map(Recorder.Frame::psn).toList(), "only the queued message, though the window holds more");
        assertEquals(true, first.get(2).flag(), "its last packet asks for an ACK");
        sender.onAck(0, 2, 0, 1, 0, false, 2, 1L, RTT);
        assertEquals(-1, sender.messageCompletion(0, 0), "packets 0 and 1 are not acknowledged yet");
        sender.onAck(0, 1, 3, 3, 0, false, 0, 0, RTT + 10);
        assertEquals(RTT + 10, sender.messageCompletion(0, 0));
        assertEquals(-1, sender.completion(0), "the connection has a message to go");
        assertFalse(sender.canSend(0));
        sender.start(0, 1_000_000);
        sendWhilePermitted(sender, 1_000_000);
        assertEquals(List.of(3, 4), out.of("data").stream().skip(3).map(Recorder.Frame::psn).toList());
        sender.onAck(0, 4, 5, 5, 0, false, 0, 0, 1_000_000 + RTT);
        assertEquals(1_000_000 + RTT, sender.messageCompletion(0, 1));
        assertEquals(1_000_000 + RTT, sender.completion(0));
        assertEquals(1, sender.completed());
    }

    @Test
    void anAckFreesTheWindowAndTheLastOneCompletesTheFlow() {
        final UetSender sender = sender(4, 4);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        sender.onAck(0, 0, 1, 1, 0, false, 0, 0, RTT);
        assertFalse(sender.canSend(0), "nothing new left to send");
        sender.onAck(0, 3, 4, 4, 0, false, 0, 0, RTT + 1000);
        assertEquals(1, sender.completed());
        assertEquals(RTT + 1000, sender.completion(0));
        assertEquals(0, sender.retransmissions(0));
    }

    @Test
    void aNackSendsThePacketAgainFirstAndShrinksTheWindow() {
        final UetSender sender = sender(8, 20);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        final long before = sender.window(0);
        sender.onNack(0, 2, 1, false, false, RTT);
        assertTrue(sender.window(0) < before, "the window shrinks on a NACK");
        assertFalse(sender.canSend(0), "by the packet the NACK took out of flight");
        sender.onAck(0, 0, 1, 1, 0, false, 0, 0, RTT);
        assertTrue(sender.canSend(0));
        sender.sendNext(0, RTT);
        final Recorder.Frame resent = out.of("data").get(8);
        assertEquals(2, resent.psn());
        assertTrue(resent.flag(), "a retransmission asks for an ACK");
        assertEquals(1, sender.retransmissions(0));
        assertEquals(1, sender.nacks(0));
    }

    @Test
    void theNackOfACopySentBeforeATimeoutLeavesTheWindowAtLeastAPacketAndTheFlowSending() {
        final UetSender sender = sender(4, 40);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        // Every packet in flight times out and is sent again at once; the first copy of packet 0 then comes back trimmed,
        // a few nanoseconds after its second copy left: no round trip of 5 ns may become the flow's base.
        sender.timeout(0, RTO);
        sendWhilePermitted(sender, RTO);
        sender.onNack(0, 0, 1, false, false, RTO + 5_000);
        assertTrue(sender.window(0) >= PACKET, sender.window(0) + " bytes");
        // The rest is acknowledged a round trip after it was sent again: the window is back above the packet the NACK
        // took, so the NACKed packet goes out again.
        sender.onAck(0, 3, 4, 3, 0, false, 0, 0, RTO + RTT);
        assertTrue(sender.window(0) > 2 * PACKET, sender.window(0) + " bytes");
        assertTrue(sender.canSend(0), "the flow sends again");
    }

    @Test
    void aPacketUnacknowledgedForTheTimeoutIsSentAgain() {
        final UetSender sender = sender(2, 2);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        sender.onAck(0, 1, 0, 1, 0, false, 0, 0, RTT);
        sender.timeout(0, RTO);
        assertEquals(1, sender.timeouts(0));
        sendWhilePermitted(sender, RTO);
        assertEquals(List.of(0, 1, 0), out.of("data").stream().map(Recorder.Frame::psn).toList());
        sender.onAck(0, 0, 2, 2, 0, false, 0, 0, RTO + RTT);
        assertEquals(1, sender.completed());
    }

    @Test
    void aSelectiveAckKeepsWhatTheReceiverHoldsFromTimingOut() {
        final UetSender sender = sender(6, 6);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        // Packet 0 is missing; the receiver holds 1..5 and says so.
        sender.onAck(0, 5, 0, 5, 0, false, 1, 0b11111, RTT);
        sender.timeout(0, RTO);
        assertEquals(1, sender.timeouts(0), "only the missing packet times out");
        sendWhilePermitted(sender, RTO);
        assertEquals(0, out.of("data").get(6).psn());
    }

    @Test
    void aResetRunRepeatsTheFirst() {
        final UetSender sender = sender(3, 5);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        final List<Recorder.Frame> first = List.copyOf(out.frames);
        out.frames.clear();
        sender.reset();
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        assertEquals(first, out.frames);
    }
}
