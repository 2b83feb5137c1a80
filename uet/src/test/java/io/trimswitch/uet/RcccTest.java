package io.trimswitch.uet;

import io.trimswitch.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RCCC's credit at a sender and the pull pacers at the receivers, driven by hand. */
class RcccTest {
    private static final long RTT = 14_022_720;
    private static final int PACKET = 4150;
    private static final int PAYLOAD = 4086;
    private static final long RATE = 100_000_000_000L;
    private final NsccParameters nscc = new NsccParameters(RTT, RATE, NsccParameters.defaultTargetDelay(RTT), PACKET, PAYLOAD);
    private final Recorder out = new Recorder();

    private UetSender sender(final UetSettings.CongestionControl cc, final int windowPackets, final int... sizes) {
        final EntropyChoice[] balancers = new EntropyChoice[sizes.length];
        for (int flow = 0; flow < sizes.length; flow++) {
            balancers[flow] = EntropyChoice.of(UetSettings.LoadBalancer.OBLIVIOUS, 4, flow);
        }
        return new UetSender(Recorder.flows(sizes), nscc, (long) windowPackets * PACKET, balancers, out, out, 100_000_000, cc);
    }

    private static void sendWhilePermitted(final UetSender sender, final long now) {
        while (sender.canSend(0)) {
            sender.sendNext(0, now);
        }
    }

    @Test
    void aFlowSpeculatesWithOneAndAHalfBdpsOfCreditWhateverItsWindow() {
        final UetSender sender = sender(UetSettings.CongestionControl.RECEIVER, 2, 100);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        // 1.5 × 175,284 bytes = 262,926: it sends while any is left, 64 packets, and ends 2,674 bytes in debt.
        final List<Recorder.Frame> data = out.of("data");
        assertEquals(64, data.size(), "the window of 2 packets does not limit RCCC alone");
        assertEquals(262_926 - 64L * PACKET, sender.credit().credit(0));
        assertTrue(data.get(63).flag(), "the packet that spends the last credit asks for an ACK");
        assertFalse(data.get(10).flag());
        // Each packet asks for the rest of the flow, at most 1.5 BDPs, less the credit held, in 256-byte quanta.
        assertEquals(Math.floorDiv(262_926 - (262_926 - PACKET) + 255, 256), data.get(0).sackBits());
        assertEquals((36L * PACKET + 2_674 + 255) / 256, data.get(63).sackBits(), "36 packets to go and the debt");
    }

    @Test
    void theFirstAnswerDropsWhatIsLeftOfTheSpeculativeCreditAndPullsAddCreditUpToTheMost() {
        final UetSender sender = sender(UetSettings.CongestionControl.RECEIVER, 2, 100);
        sender.start(0, 0);
        sender.sendNext(0, 0);
        sender.onAck(0, 0, 1, 1, 0, false, 0, 0, RTT);
        assertEquals(0, sender.credit().credit(0), "speculation ends at the first ACK");
        assertFalse(sender.canSend(0));
        sender.onPull(0, 64, RTT + 1);
        assertEquals(64 * 256, sender.credit().credit(0));
        assertTrue(sender.canSend(0));
        assertEquals(List.of(0, 0), out.ready, "started, then a pull's credit");
        sender.onPull(0, 60, RTT + 2);
        assertEquals(64 * 256, sender.credit().credit(0), "an older pull grants nothing");
        sender.onPull(0, 64 + 10_000, RTT + 3);
        assertEquals(262_926, sender.credit().credit(0), "never above 1.5 BDPs");
    }

    @Test
    void withBothTheWindowAndTheCreditLimitAFlow() {
        final UetSender sender = sender(UetSettings.CongestionControl.BOTH, 3, 100);
        sender.start(0, 0);
        sendWhilePermitted(sender, 0);
        assertEquals(3, out.of("data").size(), "the window of three packets stops it before the credit does");
        // The pull target is capped at the window and a packet, less the credit held: below one packet, so while speculating
        // it asks for one packet (17 quanta).
        assertEquals(17, out.of("data").get(2).sackBits());
    }

    @Test
    void aPacerGrantsAPullsCreditEachTurnUpToTheTargetThenSlowPullsUpToTheMostBeyondIt() {
        final PullPacers pacers = new PullPacers(new int[] {1, 1}, 2, PAYLOAD, 262_926, RATE, out, out);
        pacers.onPullTarget(0, 100, 5);
        assertEquals(List.of(5L), out.pullTimers, "an idle pacer turns at once");
        pacers.onPullTarget(1, 30, 6);
        assertEquals(1, out.pullTimers.size(), "a running pacer is not woken again");
        // 4 × 4086 bytes = 63 quanta a pull; a quantum takes 256 × 8 / 100 Gb/s / 0.99 = 20,686 ps.
        pacers.turn(1, 5);
        pacers.turn(1, 10);
        pacers.turn(1, 20);
        pacers.turn(1, 30);
        final List<Recorder.Frame> pulls = out.of("pull");
        assertEquals(List.of(0, 1, 0, 1), pulls.stream().map(Recorder.Frame::flow).toList(), "the active flows take turns, then the idle ones");
        assertEquals(List.of(63L, 30L, 100L, 93L), pulls.stream().map(Recorder.Frame::sackBits).toList(),
            "never past the target while active; then slow pulls beyond it");
        assertEquals(5 + 63 * 20_686L, out.pullTimers.get(1));
        assertEquals(20 + 37 * 20_686L, out.pullTimers.get(3));
        for (int turn = 0; turn < 100; turn++) {
            pacers.turn(1, 1_000 + turn);
        }
        // Slow pulls go on while a flow holds less than 1.5 BDPs (1,027 quanta) beyond its target.
        assertEquals(100 + 17 * 63, pacers.grantedBytes(0) / 256);
        assertEquals(30 + 17 * 63, pacers.grantedBytes(1) / 256);
        final int turns = out.pullTimers.size();
        pacers.turn(1, 5_000);
        assertEquals(turns, out.pullTimers.size(), "with nothing to grant the pacer stops");
        pacers.onTrimmed(0, 6_000);
        assertEquals(6_000L, out.pullTimers.getLast(), "a trimmed packet wakes it again");
    }

    @Test
    void theOversubscribedReceiverCcSlowsPullsAfterTrimsBeforeTheLastHopAndRecovers() {
        final PullPacers pacers = new PullPacers(new int[] {0}, 1, PAYLOAD, 262_926, RATE, out, out);
        final OversubscribedCc cc = new OversubscribedCc(1, 4, RTT, 1, pacers, out);
        cc.start(0);
        assertEquals(1, out.congestionTimers.size());
        final long first = out.congestionTimers.get(0);
        assertTrue(first >= 0.75 * 1.5 * RTT && first <= 1.25 * 1.5 * RTT, first + " ps");
        for (int packet = 0; packet < 100; packet++) {
            cc.onData(0, false, packet < 50, false);
        }
        cc.look(0, first, true);
        assertEquals(0.5, cc.rate(0), 1e-9, "half the packets trimmed before the last hop");
        for (int packet = 0; packet < 100; packet++) {
            cc.onData(0, false, true, false);
        }
        cc.look(0, 2 * first, true);
        assertEquals(0.225, cc.rate(0), 1e-9, "never below 0.9 over the oversubscription");
        cc.look(0, 3 * first, false);
        assertEquals(0.235, cc.rate(0), 1e-9, "a quiet look adds 1 %");
        assertEquals(3, out.congestionTimers.size(), "no look asked for once no flow waits");
        pacers.onTrimmed(0, 0);
        pacers.turn(0, 0);
        assertEquals((long) (20_686 / 0.235) * 4, out.pullTimers.getLast(), "the pacer runs at the rate set (a pull granting nothing waits 4 quanta)");
    }

    @Test
    void aCcValueOtherThanSenderReceiverOrBothIsRefusedNamingIt() {
        assertEquals(UetSettings.CongestionControl.BOTH, UetSettings.cc("both"));
        final ConfigException e = assertThrows(ConfigException.class, () -> UetSettings.cc("rccc"));
        assertEquals("--cc must be one of sender, receiver, both, got 'rccc'", e.getMessage());
        assertThrows(ConfigException.class, () -> UetSettings.DEFAULTS.withCc(null));
    }
}
