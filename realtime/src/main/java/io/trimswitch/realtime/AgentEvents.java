package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.RunRecorder;
import io.trimswitch.trafficmanager.TrafficManagerEvents;

/**
 * What the traffic manager tells one agent's thread: drops are recorded in that thread's own recorder
 * and their buffers handed back. Agents poll, so the "pending" wake-ups mean nothing here.
 */
final class AgentEvents implements TrafficManagerEvents {
    /** Gives a buffer back to the pool's owner. */
    @FunctionalInterface
    interface Release {
        void release(int handle);
    }

    private final PacketPool pool;
    private final RunRecorder recorder;
    private final Release release;

    AgentEvents(final PacketPool pool, final RunRecorder recorder, final Release release) {
        this.pool = pool;
        this.recorder = recorder;
        this.release = release;
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long now) {
        recorder.dropped(pool.flow(handle), reason);
        release.release(handle);
    }

    @Override
    public void egressPending(final int port, final long now) {
    }

    @Override
    public void recirculationPending(final int pipeline, final long now) {
    }

    @Override
    public boolean wantsWakeUps() {
        return false;
    }
}
