package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;

/**
 * Mirror-on-drop: the packet that meets a full data queue is dropped, but its header (the trim size)
 * is mirrored into the mirror queue of its ingress pipeline; the mirror port brings it back to the
 * header queue after the recirculation latency. No ingress meters are involved.
 */
public final class MirrorOnDrop implements DataQueueOverflow {
    private final HandleQueue[] mirrorQueues;
    private final int portsPerPipeline;
    private final int switchPorts;

    public MirrorOnDrop(final int pipelines, final int portsPerPipeline, final int mirrorQueuePackets) {
        this(pipelines, portsPerPipeline, mirrorQueuePackets, QueueFactory.SINGLE_THREADED);
    }

    /** Mirror queues from {@code queues}; each has one producer, its pipeline. */
    public MirrorOnDrop(final int pipelines, final int portsPerPipeline, final int mirrorQueuePackets, final QueueFactory queues) {
        this.portsPerPipeline = portsPerPipeline;
        this.switchPorts = pipelines * portsPerPipeline;
        this.mirrorQueues = new HandleQueue[pipelines];
        for (int pipeline = 0; pipeline < pipelines; pipeline++) {
            mirrorQueues[pipeline] = queues.create(mirrorQueuePackets, false);
        }
    }

    @Override
    public void onDataQueueFull(final TrafficManager trafficManager, final int handle, final EgressPort port, final long now) {
        final int pipeline = trafficManager.pool().ingressPort(handle) % switchPorts / portsPerPipeline;
        // Cutting in place is the same as dropping the packet and mirroring a truncated copy.
        trafficManager.trim(handle, TrimKind.MIRROR);
        trafficManager.recirculate(handle, mirrorQueues[pipeline], pipeline, DropReason.MIRROR_OVERFLOW, now);
    }

    @Override
    public HandleQueue recirculationQueue(final int pipeline) {
        return mirrorQueues[pipeline];
    }

    @Override
    public void reset() {
        for (final HandleQueue queue : mirrorQueues) {
            queue.reset();
        }
    }
}
