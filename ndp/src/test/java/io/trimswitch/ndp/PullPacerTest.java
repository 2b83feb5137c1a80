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

    @Test
    void inTurnEachFlowIsPulledOnceARoundWhateverTheOrderItAskedIn() {
        final PullPacer fair = new PullPacer(new long[] {PACKET_TIME}, 4, recorder, recorder, flow -> !finished.contains(flow),
            PullPacer.Order.ROUND_ROBIN);
        for (int i = 0; i < 3; i++) {
            fair.request(0, 2, 0);
        }
        fair.request(0, 0, 0);
        fair.request(0, 1, 0);
        for (int i = 0; i < 5; i++) {
            fair.tick(0, i * PACKET_TIME);
        }
        assertEquals(List.of(0, 1, 2, 2, 2), recorder.ofKind(NdpFrames.PULL).stream().map(Recorder.Frame::flow).toList(),
            "flow 2 asked first and thrice, but takes its turn");
        assertEquals(5, recorder.wakeups("pull").size(), "one tick per PULL, the last with nothing left to ask for none after it");
    }

    @Test
    void inTurnAFlowThatJoinsOrFinishesLeavesTheTurnWhereItWas() {
        final PullPacer fair = new PullPacer(new long[] {PACKET_TIME}, 4, recorder, recorder, flow -> !finished.contains(flow),
            PullPacer.Order.ROUND_ROBIN);
        fair.request(0, 1, 0);
        fair.request(0, 3, 0);
        fair.tick(0, 0);
        // The turn is at flow 3; flow 0 joins before it and waits for the next round.
        fair.request(0, 0, 1);
        fair.request(0, 1, 1);
        fair.tick(0, PACKET_TIME);
        // Flow 0 finishes with a request waiting: it leaves, and the round goes on with flow 1.
        finished.add(0);
        fair.finished(0, 0);
        fair.tick(0, 2 * PACKET_TIME);
        assertEquals(List.of(1, 3, 1), recorder.ofKind(NdpFrames.PULL).stream().map(Recorder.Frame::flow).toList());
        assertEquals(3, recorder.wakeups("pull").size(), "nothing waits after the third PULL");
    }
}
