package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One shard's duty cycle, driven turn by turn from the test's thread on a host clock the test moves: what another thread
 * asks of it waits for its next turn, and a packet waits on its link for its arrival time.
 */
class PipelineShardTest {
    /** One host nanosecond is 1000 ps of switch time: undilated. */
    private static final Settings SETTINGS = Settings.DEFAULTS.withRealtime(x -> x.withDilation(1));

    private final CachedNanoClock host = new CachedNanoClock();
    private final PacketPool pool = new PacketPool(2 * PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(SETTINGS, pool, 1, new int[] {pool.capacity()},
        CounterRegistry.inMemory(ShardedDataplane.counters(SETTINGS, 1)), AssembledSwitch.defaultForwarding(SETTINGS),
        () -> new RunRecorder(0, 16), false, host);
    private final PipelineShard shard = dataplane.shard(0);
    private final QuietPorts ports = new QuietPorts();

    PipelineShardTest() {
        shard.ports(ports.list(dataplane.assembly().ports()));
        dataplane.clock().startIn(0);
    }

    @Test
    void aCommandIsCarriedOutOnTheShardsNextTurnNotWhenItIsEnqueued() {
        shard.go();
        final List<Thread> ranOn = new ArrayList<>();
        shard.enqueue(() -> ranOn.add(Thread.currentThread()));
        assertTrue(ranOn.isEmpty(), "carried out by the thread that enqueued it");
        assertEquals(1, ports.wakes, "whoever enqueues wakes the shard, which may sleep in its ports' poller");

        shard.doWork();
        assertEquals(List.of(Thread.currentThread()), ranOn, "carried out once, by the thread that takes the turn");
    }

    @Test
    void aShardNotYetStartedCarriesOutNoCommand() {
        final boolean[] carriedOut = {false};
        shard.enqueue(() -> carriedOut[0] = true);
        shard.doWork();
        assertFalse(carriedOut[0], "a port not yet open may be what the command changes");

        shard.go();
        shard.doWork();
        assertTrue(carriedOut[0]);
    }

    @Test
    void aBurstOfCommandsIsCarriedOutAFewDozenATurnSoForwardingGoesOnBetween() {
        shard.go();
        final int[] carriedOut = {0};
        for (int i = 0; i < 100; i++) {
            shard.enqueue(() -> carriedOut[0]++);
        }
        shard.doWork();
        assertEquals(64, carriedOut[0]);
        shard.doWork();
        assertEquals(100, carriedOut[0]);
    }

    @Test
    void aCommandThatFailsFailsItsCallerAndTheShardGoesOn() {
        shard.go();
        final IllegalStateException refused = new IllegalStateException("no such interface");
        final CompletableFuture<Void> done = shard.submit(() -> {
            throw refused;
        });
        final CompletableFuture<Void> next = shard.submit(() -> { });
        shard.doWork();
        assertTrue(done.isCompletedExceptionally());
        assertSame(refused, done.exceptionNow());
        assertTrue(next.isDone() && !next.isCompletedExceptionally(), "the next command is carried out in the same turn");
    }

    @Test
    void anIdleShardSleepsUntilWokenButNotWithACommandWaiting() {
        shard.go();
        shard.doWork();
        assertEquals(PipelineShard.UNTIL_WOKEN, shard.sleepNanos(), "nothing inside moves with time alone");

        shard.enqueue(() -> { });
        assertEquals(0, shard.sleepNanos(), "a command that came between its turn and its sleep keeps it polling");
    }

    @Test
    void aShardWhosePortWaitsForBuffersToLendLooksAgainWithinAMillisecond() {
        shard.go();
        ports.waitingForBuffers = true;
        shard.doWork();
        assertEquals(PipelineShard.BUFFERS_AWAITED_NANOS, shard.sleepNanos(), "no frame can wake it while its fill ring is dry");
        assertEquals(1_000_000, PipelineShard.BUFFERS_AWAITED_NANOS);

        ports.waitingForBuffers = false;
        shard.doWork();
        assertEquals(PipelineShard.UNTIL_WOKEN, shard.sleepNanos(), "buffers lent again: a frame wakes it");
    }

    @Test
    void aShardNeverMetersAPacketBeforeItsArrivalTime() {
        shard.go();
        final int handle = packetOnPort(0);
        // 1 µs from now, at 1000 ps per host nanosecond.
        shard.arrive(0, handle, 1_000_000);
        host.advance(999);
        shard.doWork();
        assertEquals(1, waiting(), "metered 1 ns before it has arrived");

        shard.arrive(0, packetOnPort(0), 1_000_000);
        host.advance(1);
        shard.doWork();
        assertEquals(0, waiting(), "both arrived: both metered");
    }

    @Test
    void egressNeverRunsPastWhatThePortsHaveReceived() {
        shard.go();
        host.advance(10_000);
        ports.receivedUpTo = 4_000_000;
        shard.doWork();
        assertEquals(4_000_000, shard.doneThrough(), "a frame the ports have not yet handed in may still arrive after 4 µs");

        ports.receivedUpTo = Long.MAX_VALUE;
        shard.doWork();
        assertEquals(10_000_000, shard.doneThrough());
    }

    @Test
    void aPortThatStillHoldsEarlierFramesKeepsLaterArrivalsWaitingAndTheShardsMeteredInstantBehindThem() {
        shard.go();
        host.advance(10_000);
        shard.arrive(0, packetOnPort(0), 3_000_000);
        shard.arrive(1, packetOnPort(1), 6_000_000);
        ports.receivedUpTo = 4_000_000;
        shard.doWork();
        assertEquals(4_000_000, shard.meteredThroughPicos(), "frames received after 4 µs may still be in a ring");
        assertEquals(1, waiting(), "the arrival at 6 µs waits for what came before it");

        ports.receivedUpTo = 2_000_000;
        shard.doWork();
        assertEquals(4_000_000, shard.meteredThroughPicos(), "what was metered stays metered: it never goes back");
        ports.receivedUpTo = Long.MAX_VALUE;
        shard.doWork();
        assertEquals(10_000_000, shard.meteredThroughPicos());
    }

    /** A 64-byte frame of zeros in a buffer of the shard's, come in on {@code port}. */
    private int packetOnPort(final int port) {
        final int handle = shard.allocate();
        pool.length(handle, 64);
        pool.ingressPort(handle, port);
        pool.egressPort(handle, -1);
        return handle;
    }

    /** Packets still waiting to arrive, handed back to the pool. */
    private int waiting() {
        final int[] count = {0};
        shard.drainWaiting(handle -> {
            count[0]++;
            dataplane.release(handle);
        });
        return count[0];
    }
}
