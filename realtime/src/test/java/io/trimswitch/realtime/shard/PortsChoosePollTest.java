package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code realtime.idle: poll}'s default, on turns whose time the test moves: a shard whose ports all stamp their frames
 * (interface ports) sleeps as soon as a turn of a steady load finds nothing, one with a port that does not (UDP) polls
 * 10 ms after the last frame, and a port given or taken while the switch runs switches it at once.
 */
class PortsChoosePollTest {
    private static final long MAY_SLEEP_NANOS = RecordingRest.MAY_SLEEP_NANOS;
    private static final long MICROS = 1_000;
    private static final int INTERFACE_PORT = 0;
    private static final int UDP_PORT = 1;

    /** A kind of ports that receives nothing here; {@code stamped} says whether it would time its frames by the kernel. */
    private record Ports(boolean stamped) implements PortKind {
        @Override
        public int receive(final Burst burst) {
            return 0;
        }

        @Override
        public void send(final int port, final int handle, final long time) {
        }

        @Override
        public boolean stampsArrivals() {
            return stamped;
        }
    }

    private final PortList list = new PortList(4, ShardSleep.parked());
    private final RecordingRest shard = new RecordingRest(1_000_000_000L, list::everyPortStamped);
    private final Ports interfaces = new Ports(true);
    private final Ports udp = new Ports(false);
    private final PortsChoosePoll policy = new PortsChoosePoll(shard);

    /** A steady load: 2 ms of frames 50 µs apart, past any answer window. */
    private void steadyLoad() {
        for (int frame = 0; frame < 40; frame++) {
            shard.now += 50 * MICROS;
            shard.received = true;
            policy.idle(1);
            shard.received = false;
        }
    }

    /** After {@code stepNanos}: a turn that finds nothing; whether the thread slept then. */
    private boolean emptyTurnSlept(final long stepNanos) {
        final int before = shard.sleeps.size();
        shard.now += stepNanos;
        policy.idle(0);
        return shard.sleeps.size() > before;
    }

    @Test
    void aShardOfInterfacePortsSleepsAtTheFirstQuietTurnOfASteadyLoad() {
        list.add(interfaces, INTERFACE_PORT);
        steadyLoad();
        assertEquals(true, emptyTurnSlept(MICROS));
    }

    @Test
    void aShardWithAUdpPortPollsTenMillisecondsAfterTheLastFrame() {
        list.add(interfaces, INTERFACE_PORT).add(udp, UDP_PORT);
        steadyLoad();
        assertEquals(false, emptyTurnSlept(MICROS), "1 µs after the last frame");
        assertEquals(false, emptyTurnSlept(9_998 * MICROS), "9.999 ms after it");
        assertEquals(true, emptyTurnSlept(MICROS), "10 ms after it");
    }

    @Test
    void aUdpPortGivenWhileRunningKeepsTheWindowAndTakenAwaySleepsAtOnceAgain() {
        list.add(interfaces, INTERFACE_PORT).add(udp);
        steadyLoad();
        assertEquals(true, emptyTurnSlept(MICROS), "interface ports only");
        list.assign(UDP_PORT, udp);
        steadyLoad();
        assertEquals(false, emptyTurnSlept(MICROS), "with the UDP port, 1 µs after the last frame");
        assertEquals(false, emptyTurnSlept(5_000 * MICROS), "with the UDP port, 5 ms after it");
        list.assign(UDP_PORT, null);
        assertEquals(true, emptyTurnSlept(MICROS), "the UDP port taken away");
    }

    @Test
    void aPortMovedFromOneKindToTheOtherIsCountedOnce() {
        list.add(interfaces).add(udp);
        list.assign(UDP_PORT, udp);
        list.assign(UDP_PORT, udp);
        list.assign(UDP_PORT, interfaces);
        steadyLoad();
        assertEquals(true, emptyTurnSlept(MICROS), "its one count went with its kind");
    }
}
