package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UetReceiverTest {
    private final Recorder out = new Recorder();
    private final UetReceiver receiver = new UetReceiver(Recorder.flows(12), out, 4150, 16_384);

    @Test
    void acknowledgesTheFirstPacketThenEveryFourOfThisSize() {
        for (int psn = 0; psn < 9; psn++) {
            receiver.onData(0, psn, 7, false, false, psn);
        }
        assertEquals(List.of(0, 4, 8), out.of("ack").stream().map(Recorder.Frame::psn).toList());
        final Recorder.Frame last = out.of("ack").get(2);
        assertEquals(9, last.cumulative());
        assertEquals(9, last.received());
        assertEquals(7, last.entropy());
    }

    @Test
    void aMarkedPacketOrAnAckRequestIsAcknowledgedAtOnce() {
        receiver.onData(0, 0, 1, false, false, 0);
        receiver.onData(0, 1, 2, true, false, 1);
        receiver.onData(0, 2, 3, false, true, 2);
        assertEquals(List.of(0, 1, 2), out.of("ack").stream().map(Recorder.Frame::psn).toList());
        assertTrue(out.of("ack").get(1).marked());
    }

    @Test
    void aHeaderIsNackedSayingWhetherTheLastHopTrimmedIt() {
        receiver.onData(0, 0, 1, false, false, 0);
        receiver.onTrimmed(0, 2, 5, true, false, 1);
        receiver.onTrimmed(0, 3, 6, false, false, 2);
        final List<Recorder.Frame> nacks = out.of("nack");
        assertEquals(2, nacks.size());
        assertEquals(2, nacks.get(0).psn());
        assertTrue(nacks.get(0).flag());
        assertEquals(false, nacks.get(1).flag());
        assertEquals(1, nacks.get(1).cumulative());
        assertEquals(2, receiver.trimmed(0));
    }

    @Test
    void outOfOrderPacketsCompleteTheFlowWhenTheGapFills() {
        for (int psn = 11; psn >= 0; psn--) {
            receiver.onData(0, psn, 0, false, psn == 0, 100 - psn);
        }
        assertEquals(1, receiver.completed());
        assertEquals(100, receiver.completion(0));
        final Recorder.Frame last = out.frames.get(out.frames.size() - 1);
        assertEquals(12, last.cumulative());
    }

    @Test
    void anAckMapsThePacketsHeldBeyondAGap() {
        receiver.onData(0, 0, 0, false, false, 0);
        for (int psn = 2; psn < 6; psn++) {
            receiver.onData(0, psn, 0, false, false, psn);
        }
        final Recorder.Frame ack = out.of("ack").get(1);
        assertEquals(1, ack.cumulative());
        assertEquals(2, ack.sackBase());
        assertEquals(0b1111, ack.sackBits());
    }

    @Test
    void aDuplicateIsAcknowledgedAtOnce() {
        receiver.onData(0, 0, 0, false, false, 0);
        receiver.onData(0, 1, 0, false, false, 1);
        receiver.onData(0, 1, 0, false, false, 2);
        assertEquals(List.of(0L, 2L), out.of("ack").stream().map(Recorder.Frame::now).toList());
    }
}
