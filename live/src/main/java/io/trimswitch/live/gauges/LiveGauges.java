package io.trimswitch.live.gauges;

import io.trimswitch.dataplane.counters.CounterBlock;
import io.trimswitch.dataplane.counters.CounterName;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What the live switch's counters file shows besides counts: each port's queue depths now and at most, the depth
 * quantiles departing packets saw, the traffic classes' queues, and the drops that only the kernel counts (a socket's
 * overflow, an interface ring's). One thread samples them every {@link #PERIOD_MILLIS} ms (up to
 * {@link #IDLE_PERIOD_MILLIS} while nothing changes) into gauges of the registry,
 * which it alone writes, so that a reader in another process sees them without asking the switch.
 */
public final class LiveGauges implements AutoCloseable {
    /** How stale a gauge in the file may be while packets move. */
    public static final long PERIOD_MILLIS = 100;
    /**
     * How stale it may be once nothing moves: each sample that changed no gauge doubles the wait up to this, and the
     * first that changes one brings it back to {@link #PERIOD_MILLIS}, so an idle switch wakes once a second.
     */
    static final long IDLE_PERIOD_MILLIS = 1000;
    /** The sampling thread's name. */
    public static final String THREAD_NAME = "trimswitch-gauges";
    static final double[] QUANTILES = {0.5, 0.9, 0.99, 1.0};
    private static final String[] QUANTILE_NAMES = {"p50", "p90", "p99", "max"};
    private static final int DATA_DEPTH = 0;
    private static final int HEADER_DEPTH = 1;
    private static final int DATA_MAX = 2;
    private static final int HEADER_MAX = 3;
    private static final int DATA_QUANTILES = 4;
    private static final int HEADER_QUANTILES = DATA_QUANTILES + QUANTILES.length;
    private static final int KERNEL_DROPS = HEADER_QUANTILES + QUANTILES.length;
    /** An interface port's second kernel count, frames that found its fill ring empty; a UDP port has none. */
    private static final int FILL_RING_DROPS = KERNEL_DROPS + 1;

    /** Where the gauges of one port come from. */
    public interface Port {
        EgressPort egress();

        /**
         * The depths departing packets saw in its data (or header) queue so far, at {@code percentiles}, into
         * {@code values}; false, {@code values} untouched, when none departed since the last call.
         */
        boolean depthsAt(boolean data, double[] percentiles, long[] values);

        /** Drops that the kernel counted for the port's socket or ring, so far. */
        long kernelDrops();

        /** Frames the kernel dropped because the port's fill ring was empty (AF_XDP), so far; 0 for other kinds. */
        default long fillRingDrops() {
            return 0;
        }
    }

    /** By port number; null for a port not attached (yet). */
    private final Port[] ports;
    private final CounterBlock[] gauges;
    /** By port number: where its traffic classes' gauges start, past its kernel counts. */
    private final int[] trafficClasses;
    private final CounterRegistry registry;
    private final List<String> discards;
    private static final double[] PERCENTILES = {50, 90, 99, 100};
    private final Thread sampler;
    private volatile boolean closed;
    /** Null without UDP ports. */
    private final LivePortKind.KernelDrops socketDrops;
    /** Reused by every sample: steady, the gauges' thread allocates nothing. */
    private final long[] quantileValues = new long[QUANTILES.length];

    /**
     * @param kernelDropNames per port: why the kernel drops frames there (socketOverflow, ringOverflow)
     * @param discards        with traffic classes, each data queue's discard action; empty without
     * @param socketDrops     the kernel's drops of UDP sockets, read once per sample and closed with the gauges; null for none
     */
    public LiveGauges(final CounterRegistry registry, final int maxPorts, final List<Port> ports, final List<DropReason> kernelDropNames,
        final List<String> discards, final LivePortKind.KernelDrops socketDrops) {
        this.registry = registry;
        this.discards = List.copyOf(discards);
        this.ports = new Port[maxPorts];
        this.socketDrops = socketDrops;
        this.gauges = new CounterBlock[maxPorts];
        this.trafficClasses = new int[maxPorts];
        for (int port = 0; port < ports.size(); port++) {
            add(port, ports.get(port), kernelDropNames.get(port));
        }
        // A thread of its own that parks between samples: a scheduled executor's wait allocates a node each time.
        this.sampler = new Thread(this::sampleUntilClosed, THREAD_NAME);
        sampler.setDaemon(true);
    }

    /** Counters of the registry per port for {@code queues} traffic classes, at most. */
    public static int counters(final int queues) {
        return FILL_RING_DROPS + 1 + 3 * queues;
    }

    /** Whether the kernel also counts a fill ring's drops where it counts {@code kernelDrops}: on an interface's. */
    private static boolean hasFillRing(final DropReason kernelDrops) {
        return kernelDrops == DropReason.RING_OVERFLOW;
    }

    private static List<CounterName> names(final int port, final DropReason kernelDrops, final List<String> discards) {
        final List<CounterName> names = new ArrayList<>();
        names.add(CounterName.of(CounterType.DATA_QUEUE_DEPTH, port));
        names.add(CounterName.of(CounterType.HEADER_QUEUE_DEPTH, port));
        names.add(CounterName.of(CounterType.DATA_QUEUE_MAX_DEPTH, port));
        names.add(CounterName.of(CounterType.HEADER_QUEUE_MAX_DEPTH, port));
        for (final CounterType type : new CounterType[] {CounterType.DATA_QUEUE_DEPTH_QUANTILE, CounterType.HEADER_QUEUE_DEPTH_QUANTILE}) {
            for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
                names.add(new CounterName(type, port, quantile, QUANTILE_NAMES[quantile]));
            }
        }
        names.add(kernelDrops.at(port));
        if (hasFillRing(kernelDrops)) {
            names.add(DropReason.FILL_RING_EMPTY.at(port));
        }
        for (int queue = 0; queue < discards.size(); queue++) {
            names.add(new CounterName(CounterType.TC_QUEUE_PACKETS, port, queue, discards.get(queue)));
            names.add(new CounterName(CounterType.TC_QUEUE_OVERFLOW_PACKETS, port, queue, discards.get(queue)));
            names.add(new CounterName(CounterType.TC_QUEUE_MAX_DEPTH, port, queue, discards.get(queue)));
        }
        return names;
    }

    /** Gauges for {@code port}, attached while the switch runs; from the control thread. */
    public synchronized void add(final int port, final Port source, final DropReason kernelDrops) {
        gauges[port] = registry.block("gauges", names(port, kernelDrops, discards));
        trafficClasses[port] = hasFillRing(kernelDrops) ? FILL_RING_DROPS + 1 : FILL_RING_DROPS;
        ports[port] = source;
    }

    /** Samples now and then every period, until closed. */
    public void start() {
        sampler.start();
    }

    private void sampleUntilClosed() {
        long periodMillis = PERIOD_MILLIS;
        while (!closed) {
            periodMillis = sampleQuietly() ? PERIOD_MILLIS : Math.min(IDLE_PERIOD_MILLIS, 2 * periodMillis);
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(periodMillis));
        }
    }

    /** Whether the sample changed a gauge; a failed one leaves the last values, and the next one tries again. */
    private boolean sampleQuietly() {
        try {
            return sample();
        } catch (final RuntimeException e) {
            return true;
        }
    }

    /** Sets gauge {@code index} of {@code gauge}; whether its value changed. */
    private static boolean update(final CounterBlock gauge, final int index, final long value) {
        if (gauge.get(index) == value) {
            return false;
        }
        gauge.set(index, value);
        return true;
    }

    /** Every gauge from where it comes, and whether any changed; on the sampling thread, or once the sampler has stopped. */
    private synchronized boolean sample() {
        boolean changed = false;
        if (socketDrops != null) {
            socketDrops.refresh();
        }
        for (int port = 0; port < gauges.length; port++) {
            final CounterBlock gauge = gauges[port];
            final Port source = ports[port];
            if (source == null) {
                continue;
            }
            final EgressPort egress = source.egress();
            changed |= update(gauge, DATA_DEPTH, egress.dataQueue().size());
            changed |= update(gauge, HEADER_DEPTH, egress.headerQueue().size());
            changed |= update(gauge, DATA_MAX, egress.dataQueue().maxDepth());
            changed |= update(gauge, HEADER_MAX, egress.headerQueue().maxDepth());
            if (source.depthsAt(true, PERCENTILES, quantileValues)) {
                changed = true;
                for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
                    changed |= update(gauge, DATA_QUANTILES + quantile, quantileValues[quantile]);
                }
            }
            if (source.depthsAt(false, PERCENTILES, quantileValues)) {
                changed = true;
                for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
                    changed |= update(gauge, HEADER_QUANTILES + quantile, quantileValues[quantile]);
                }
            }
            changed |= update(gauge, KERNEL_DROPS, source.kernelDrops());
            final int classes = trafficClasses[port];
            if (classes > FILL_RING_DROPS) {
                changed |= update(gauge, FILL_RING_DROPS, source.fillRingDrops());
            }
            for (int queue = 0; classes + 3 * queue < gauge.count(); queue++) {
                final HandleQueue classQueue = egress.dataQueue(queue);
                changed |= update(gauge, classes + 3 * queue, classQueue.enqueued());
                changed |= update(gauge, classes + 3 * queue + 1, classQueue.rejected());
                changed |= update(gauge, classes + 3 * queue + 2, classQueue.maxDepth());
            }
        }
        return changed;
    }

    /** Stops sampling and takes a last sample, so the file ends with the switch's last state. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(sampler);
        try {
            sampler.join(TimeUnit.SECONDS.toMillis(1));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sampleQuietly();
        if (socketDrops != null) {
            socketDrops.close();
        }
    }
}
