package io.trimswitch.realtime;

import io.trimswitch.dataplane.counters.CounterBlock;
import io.trimswitch.dataplane.counters.CounterName;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.PortDrop;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.sockets.KernelSocketDrops;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What the live switch's counters file shows besides counts: each port's queue depths now and at most, the depth
 * quantiles departing packets saw, the traffic classes' queues, and the drops that only the kernel counts (a socket's
 * overflow, an interface ring's). One thread samples them every {@link #PERIOD_MILLIS} ms into gauges of the registry,
 * which it alone writes, so that a reader in another process sees them without asking the switch.
 */
final class LiveGauges implements AutoCloseable {
    /** How stale a gauge in the file may be. */
    static final long PERIOD_MILLIS = 100;
    /** The sampling thread's name. */
    static final String THREAD_NAME = "trimswitch-gauges";
    static final double[] QUANTILES = {0.5, 0.9, 0.99, 1.0};
    private static final String[] QUANTILE_NAMES = {"p50", "p90", "p99", "max"};
    private static final int DATA_DEPTH = 0;
    private static final int HEADER_DEPTH = 1;
    private static final int DATA_MAX = 2;
    private static final int HEADER_MAX = 3;
    private static final int DATA_QUANTILES = 4;
    private static final int HEADER_QUANTILES = DATA_QUANTILES + QUANTILES.length;
    private static final int KERNEL_DROPS = HEADER_QUANTILES + QUANTILES.length;
    private static final int TRAFFIC_CLASSES = KERNEL_DROPS + 1;

    /** Where the gauges of one port come from. */
    interface Port {
        EgressPort egress();

        /** The depths departing packets saw in its data (or header) queue so far, at {@code percentiles}, into {@code values}. */
        void depthsAt(boolean data, double[] percentiles, long[] values);

        /** Drops that the kernel counted for the port's socket or ring, so far. */
        long kernelDrops();
    }

    /** By port number; null for a port not attached (yet). */
    private final Port[] ports;
    private final CounterBlock[] gauges;
    private final CounterRegistry registry;
    private final List<String> discards;
    private static final double[] PERCENTILES = {50, 90, 99, 100};
    private final Thread sampler;
    private volatile boolean closed;
    /** Null without UDP ports. */
    private final KernelSocketDrops socketDrops;
    /** Reused by every sample: steady, the gauges' thread allocates nothing. */
    private final long[] quantileValues = new long[QUANTILES.length];

    /**
     * @param kernelDropNames per port: why the kernel drops frames there (socketOverflow, ringOverflow)
     * @param discards        with traffic classes, each data queue's discard action; empty without
     * @param socketDrops     the kernel's drops of UDP sockets, read once per sample and closed with the gauges; null for none
     */
    LiveGauges(final CounterRegistry registry, final int maxPorts, final List<Port> ports, final List<PortDrop> kernelDropNames,
        final List<String> discards, final KernelSocketDrops socketDrops) {
        this.registry = registry;
        this.discards = List.copyOf(discards);
        this.ports = new Port[maxPorts];
        this.socketDrops = socketDrops;
        this.gauges = new CounterBlock[maxPorts];
        for (int port = 0; port < ports.size(); port++) {
            add(port, ports.get(port), kernelDropNames.get(port));
        }
        // A thread of its own that parks between samples: a scheduled executor's wait allocates a node each time.
        this.sampler = new Thread(this::sampleUntilClosed, THREAD_NAME);
        sampler.setDaemon(true);
    }

    /** Counters of the registry per port for {@code queues} traffic classes. */
    static int counters(final int queues) {
        return TRAFFIC_CLASSES + 3 * queues;
    }

    private static List<CounterName> names(final int port, final PortDrop kernelDrops, final List<String> discards) {
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
        for (int queue = 0; queue < discards.size(); queue++) {
            names.add(new CounterName(CounterType.TC_QUEUE_PACKETS, port, queue, discards.get(queue)));
            names.add(new CounterName(CounterType.TC_QUEUE_OVERFLOW_PACKETS, port, queue, discards.get(queue)));
            names.add(new CounterName(CounterType.TC_QUEUE_MAX_DEPTH, port, queue, discards.get(queue)));
        }
        return names;
    }

    /** Gauges for {@code port}, attached while the switch runs; from the control thread. */
    synchronized void add(final int port, final Port source, final PortDrop kernelDrops) {
        gauges[port] = registry.block("gauges", names(port, kernelDrops, discards));
        ports[port] = source;
    }

    /** Samples now and then every period, until closed. */
    void start() {
        sampler.start();
    }

    private void sampleUntilClosed() {
        while (!closed) {
            sampleQuietly();
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS));
        }
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (final RuntimeException e) {
            // A failed sample leaves the last values; the next one tries again.
        }
    }

    /** Every gauge from where it comes; on the sampling thread, or once the sampler has stopped. */
    private synchronized void sample() {
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
            gauge.set(DATA_DEPTH, egress.dataQueue().size());
            gauge.set(HEADER_DEPTH, egress.headerQueue().size());
            gauge.set(DATA_MAX, egress.dataQueue().maxDepth());
            gauge.set(HEADER_MAX, egress.headerQueue().maxDepth());
            source.depthsAt(true, PERCENTILES, quantileValues);
            for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
                gauge.set(DATA_QUANTILES + quantile, quantileValues[quantile]);
            }
            source.depthsAt(false, PERCENTILES, quantileValues);
            for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
                gauge.set(HEADER_QUANTILES + quantile, quantileValues[quantile]);
            }
            gauge.set(KERNEL_DROPS, source.kernelDrops());
            for (int queue = 0; TRAFFIC_CLASSES + 3 * queue < gauge.count(); queue++) {
                final HandleQueue classQueue = egress.dataQueue(queue);
                gauge.set(TRAFFIC_CLASSES + 3 * queue, classQueue.enqueued());
                gauge.set(TRAFFIC_CLASSES + 3 * queue + 1, classQueue.rejected());
                gauge.set(TRAFFIC_CLASSES + 3 * queue + 2, classQueue.maxDepth());
            }
        }
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
