package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;

/**
 * Deflect-on-drop: a trimmable packet that meets a full data queue goes whole into the DoD queue of
 * the pipeline it came in on; that pipeline's recirculation port brings it back, trims it and raises
 * the congestion signal. A full DoD queue is a real loss, counted as a DoD overflow.
 */
public final class DeflectOnDrop implements DataQueueOverflow {
    private final HandleQueue[] dodQueues;
    private final int portsPerPipeline;
    private final int switchPorts;

    public DeflectOnDrop(final int pipelines, final int portsPerPipeline, final int dodQueuePackets) {
        this(pipelines, portsPerPipeline, dodQueuePackets, QueueFactory.SINGLE_THREADED);
    }

    /** DoD queues from {@code queues}; each has one producer, its pipeline. */
    public DeflectOnDrop(final int pipelines, final int portsPerPipeline, final int dodQueuePackets, final QueueFactory queues) {
        this.portsPerPipeline = portsPerPipeline;
        this.switchPorts = pipelines * portsPerPipeline;
        this.dodQueues = new HandleQueue[pipelines];
        for (int pipeline = 0; pipeline < pipelines; pipeline++) {
            dodQueues[pipeline] = queues.create(dodQueuePackets, false);
        }
    }

    @Override
    public void onDataQueueFull(final TrafficManager trafficManager, final int handle, final EgressPort port, final long now) {
        final PacketPool pool = trafficManager.pool();
        final int pipeline = pool.ingressPort(handle) % switchPorts / portsPerPipeline;
        trafficManager.recirculate(handle, dodQueues[pipeline], pipeline, DropReason.DOD_OVERFLOW, now);
    }

    @Override
    public HandleQueue recirculationQueue(final int pipeline) {
        return dodQueues[pipeline];
    }

    /** Packets that met a full data queue and were deflected towards this pipeline's DoD queue. */
    public long deflections(final int pipeline) {
        return dodQueues[pipeline].enqueued() + dodQueues[pipeline].rejected();
    }

    @Override
    public void reset() {
        for (final HandleQueue queue : dodQueues) {
            queue.reset();
        }
    }
}
