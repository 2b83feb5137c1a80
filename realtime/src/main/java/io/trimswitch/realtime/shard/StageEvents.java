package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.trafficmanager.TrafficManagerEvents;

import java.util.function.IntConsumer;

/**
 * What the traffic manager tells one shard's stages: drops are recorded in that thread's own recorder
 * and their buffers handed back. Stages poll; only with every stage on one thread does a port's wake-up
 * tell its egress stage where to look.
 */
final class StageEvents implements TrafficManagerEvents {
    /** Gives a buffer back to the pool's owner. */
    @FunctionalInterface
    interface Release {
        void release(int handle);
    }

    /** Before a packet from inside the switch is queued at a port: the port is brought up to that instant. */
    @FunctionalInterface
    interface BeforeQueued {
        void reaches(int port, long time);
    }

    private final PacketPool pool;
    private final RunRecorder recorder;
    /** Null where what is queued comes from outside (a pipeline's arrivals: its shard has caught up already). */
    private final BeforeQueued beforeQueued;
    private final Release release;
    /** Told of each idle port the traffic manager queues for; null: nobody listens. */
    private final IntConsumer egressWakeUps;

    StageEvents(final PacketPool pool, final RunRecorder recorder, final Release release, final IntConsumer egressWakeUps,
        final BeforeQueued beforeQueued) {
        this.pool = pool;
        this.beforeQueued = beforeQueued;
        this.recorder = recorder;
        this.release = release;
        this.egressWakeUps = egressWakeUps;
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long now) {
        recorder.dropped(pool.flow(handle), reason);
        release.release(handle);
    }

    @Override
    public void beforeEnqueue(final int port, final long now) {
        if (beforeQueued != null) {
            beforeQueued.reaches(port, now);
        }
    }

    @Override
    public void egressPending(final int port, final long now) {
        if (egressWakeUps != null) {
            egressWakeUps.accept(port);
        }
    }

    @Override
    public void recirculationPending(final int pipeline, final long now) {
    }

    @Override
    public boolean wantsWakeUps() {
        return egressWakeUps != null;
    }
}
