package io.trimswitch.ndp;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PullPacerTest {
    private static final long PACKET_TIME = 120_000;

    private final Recorder recorder = new Recorder();
    private final Set<Integer> finished = new HashSet<>();
    private final PullPacer pacer = new PullPacer(8, 4, PACKET_TIME, recorder, recorder, flow -> !finished.contains(flow));

    @Test
    void aHostSendsOnePullPerPacketTimeWhateverTheNumberOfFlowsAsking() {
        final int link = 4;
        pacer.request(link, 0, 0);
        pacer.request(link, 1, 0);
        pacer.request(link, 2, 0);
        assertEquals(1, recorder.wakeups("pull").size(), "one tick pending per host, however many ask");
        pacer.tick(link, 0);
        pacer.tick(link, PACKET_TIME);
        pacer.tick(link, 2 * PACKET_TIME);
        assertEquals(List.of(0L, PACKET_TIME, 2 * PACKET_TIME), recorder.wakeups("pull").stream().map(Recorder.Wakeup::time).toList());
        assertEquals(List.of(0, 1, 2), recorder.ofKind(NdpFrames.PULL).stream().map(Recorder.Frame::flow).toList(), "first asked, first pulled");
    }

    @Test
    void aFinishedFlowsRequestIsSkippedWithoutCostingAPacketTime() {
        final int link = 4;
        pacer.request(link, 0, 0);
        pacer.request(link, 1, 0);
        finished.add(0);
        pacer.tick(link, 0);
        // Flow 1 was pulled at once, and nothing waits: no further tick.
        assertEquals(1, recorder.wakeups("pull").size());
        assertEquals(1, recorder.ofKind(NdpFrames.PULL).size());
        pacer.request(link, 1, 10);
        assertEquals(PACKET_TIME, recorder.wakeups("pull").get(1).time(), "the next PULL waits one packet time after the last");
    }

    @Test
    void eachPullOfAFlowCarriesTheNextPullNumber() {
        pacer.request(0, 3, 0);
        pacer.tick(0, 0);
        pacer.request(0, 3, 5);
        pacer.tick(0, PACKET_TIME);
        assertEquals(List.of(1, 2), recorder.ofKind(NdpFrames.PULL).stream().map(Recorder.Frame::pull).toList());
        assertEquals(2, pacer.pulls(3));
    }
}
