package io.trimswitch.ndp;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class NdpReceiverTest {
    private final Recorder recorder = new Recorder();
    private final NdpReceiver receiver = new NdpReceiver(Recorder.flows(10, 3), recorder, flow -> 0);
    private final PullPacer pacer = new PullPacer(1, 1, 100, recorder, recorder, receiver::receiving);

    NdpReceiverTest() {
        receiver.pullFrom(pacer);
    }

    @Test
    void aWholePacketIsAckedAndAHeaderIsNackedAndEitherAsksForAPull() {
        receiver.onData(0, 0, false, 1);
        receiver.onData(0, 1, true, 2);
        assertEquals(List.of(0), recorder.sequencesOf(NdpFrames.ACK));
        assertEquals(List.of(1), recorder.sequencesOf(NdpFrames.NACK));
        pacer.tick(0, 1);
        pacer.tick(0, 101);
        assertEquals(2, recorder.ofKind(NdpFrames.PULL).size(), "one pull per packet that arrived, whole or header");
    }

    @Test
    void theFlowCompletesWhenItsLastMissingPacketArrivesAndThenStopsPulling() {
        receiver.onData(0, 0, false, 1);
        receiver.onData(0, 1, false, 2);
        receiver.onData(0, 1, false, 3);
        receiver.onData(0, 2, false, 4);
        assertEquals(4, receiver.completion(0));
        assertEquals(1, receiver.completed());
        assertFalse(receiver.receiving(0));
        assertEquals(4, recorder.ofKind(NdpFrames.ACK).size(), "a duplicate is ACKed again, in case the first ACK was lost");
        pacer.tick(0, 5);
        assertEquals(0, recorder.ofKind(NdpFrames.PULL).size(), "a finished flow is not pulled");
    }
}
