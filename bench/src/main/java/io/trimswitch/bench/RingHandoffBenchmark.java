package io.trimswitch.bench;

import io.trimswitch.trafficmanager.HandleRing;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Packet handles handed from one thread to another: the traffic manager's rings (one producer, and
 * the many-producer ring with its exact capacity that egress queues use) next to two baselines: the
 * same rings built on Agrona's byte ring buffers ({@link AgronaHandleRing}), JCTools' single- and multi-producer
 * array queues of references, and a plain {@link ArrayBlockingQueue}. The consumer takes up to 32 at a time; counted: handles that arrived, per second.
 */
@State(Scope.Group)
public class RingHandoffBenchmark extends SwitchBenchmark {
    private static final int CAPACITY = 1024;
    /** Consumers take what waits in batches, as the agents do. */
    private static final int BATCH = 32;

    private HandleRing oneToOne;
    private HandleRing manyToOne;
    private AgronaHandleRing agronaOneToOne;
    private AgronaHandleRing agronaManyToOne;
    private SpscArrayQueue<Integer> jctoolsOneToOne;
    private MpscArrayQueue<Integer> jctoolsManyToOne;
    private ArrayBlockingQueue<Integer> blocking;
    private final java.util.List<Integer> drained = new java.util.ArrayList<>(BATCH);
    private final HandleRing.HandleConsumer received = handle -> { };
    private final MessagePassingQueue.Consumer<Integer> receivedBoxed = handle -> { };

    /** Handles that reached the consumer. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Received {
        public long handles;

        @Setup(Level.Iteration)
        public void clear() {
            handles = 0;
        }
    }

    @Setup
    public void setUp() {
        oneToOne = new HandleRing(CAPACITY, false);
        manyToOne = new HandleRing(CAPACITY, true);
        agronaOneToOne = new AgronaHandleRing(CAPACITY, false);
        agronaManyToOne = new AgronaHandleRing(CAPACITY, true);
        jctoolsOneToOne = new SpscArrayQueue<>(CAPACITY);
        jctoolsManyToOne = new MpscArrayQueue<>(CAPACITY);
        blocking = new ArrayBlockingQueue<>(CAPACITY);
    }

    @Benchmark
    @Group("oneToOneRing")
    @GroupThreads(1)
    public boolean oneToOneOffer() {
        return oneToOne.offer(7);
    }

    @Benchmark
    @Group("oneToOneRing")
    @GroupThreads(1)
    public void oneToOneDrain(final Received count) {
        count.handles += oneToOne.drain(received, BATCH);
    }

    @Benchmark
    @Group("manyToOneExactRing")
    @GroupThreads(1)
    public boolean manyToOneOffer() {
        return manyToOne.offer(7);
    }

    @Benchmark
    @Group("manyToOneExactRing")
    @GroupThreads(1)
    public void manyToOneDrain(final Received count) {
        count.handles += manyToOne.drain(received, BATCH);
    }

    /** Baseline: the one-producer ring on Agrona's {@code OneToOneRingBuffer}. */
    @Benchmark
    @Group("baselineAgronaOneToOne")
    @GroupThreads(1)
    public boolean agronaOneToOneOffer() {
        return agronaOneToOne.offer(7);
    }

    @Benchmark
    @Group("baselineAgronaOneToOne")
    @GroupThreads(1)
    public void agronaOneToOneDrain(final Received count) {
        count.handles += agronaOneToOne.drain(received, BATCH);
    }

    /** Baseline: the exact many-producer ring on Agrona's {@code ManyToOneRingBuffer}. */
    @Benchmark
    @Group("baselineAgronaManyToOne")
    @GroupThreads(1)
    public boolean agronaManyToOneOffer() {
        return agronaManyToOne.offer(7);
    }

    @Benchmark
    @Group("baselineAgronaManyToOne")
    @GroupThreads(1)
    public void agronaManyToOneDrain(final Received count) {
        count.handles += agronaManyToOne.drain(received, BATCH);
    }

    /**
     * Baseline: JCTools' one-producer queue of references. Handles up to 127 come boxed from the Integer cache, as
     * here; a real pool's handles go higher and would be boxed anew, so this is JCTools at its best.
     */
    @Benchmark
    @Group("baselineJctoolsSpsc")
    @GroupThreads(1)
    public boolean jctoolsOneToOneOffer() {
        return jctoolsOneToOne.offer(7);
    }

    @Benchmark
    @Group("baselineJctoolsSpsc")
    @GroupThreads(1)
    public void jctoolsOneToOneDrain(final Received count) {
        count.handles += jctoolsOneToOne.drain(receivedBoxed, BATCH);
    }

    /** Baseline: JCTools' many-producer queue of references (capacity rounded to a power of two, not exact). */
    @Benchmark
    @Group("baselineJctoolsMpsc")
    @GroupThreads(1)
    public boolean jctoolsManyToOneOffer() {
        return jctoolsManyToOne.offer(7);
    }

    @Benchmark
    @Group("baselineJctoolsMpsc")
    @GroupThreads(1)
    public void jctoolsManyToOneDrain(final Received count) {
        count.handles += jctoolsManyToOne.drain(receivedBoxed, BATCH);
    }

    /** Baseline: the JDK's bounded queue (small boxed handles come from the Integer cache: no allocation). */
    @Benchmark
    @Group("baselineArrayBlockingQueue")
    @GroupThreads(1)
    public boolean blockingOffer() {
        return blocking.offer(7);
    }

    @Benchmark
    @Group("baselineArrayBlockingQueue")
    @GroupThreads(1)
    public void blockingDrain(final Received count) {
        drained.clear();
        count.handles += blocking.drainTo(drained, BATCH);
    }
}
