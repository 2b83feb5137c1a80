package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.FrameCapture;
import io.trimswitch.switching.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.TrafficSource;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.Agent;

/**
 * The switch's in-memory generator ports: each packet of the workload is written into a pooled buffer
 * when its last bit is due, by the dilated clock, and put on the receive ring of the pipeline that owns
 * its ingress port. This agent owns the packet pool: buffers freed by other threads come back through a
 * ring and are reclaimed here, so the pool itself has one writer.
 */
final class PortsAgent implements Agent {
    private final TrafficSource source;
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final HandleRing[] rxRings;
    private final HandleRing returns;
    private final RunRecorder recorder;
    private final DilatedClock clock;
    private final int batch;
    private final HandleRing.HandleConsumer reclaim;
    private long maxLagPicos;
    private long workCycles;
    private FrameCapture capture;
    private long horizonPicos = Long.MIN_VALUE;
    /** Published each cycle for the thread that waits for the run to end: the source is done and every buffer is back. */
    private volatile boolean quiet;

    PortsAgent(
        final TrafficSource source, final PacketPool pool, final AssembledSwitch assembly, final HandleRing[] rxRings,
        final HandleRing returns, final RunRecorder recorder, final DilatedClock clock, final int batch) {
        this.source = source;
        this.pool = pool;
        this.assembly = assembly;
        this.rxRings = rxRings;
        this.returns = returns;
        this.recorder = recorder;
        this.clock = clock;
        this.batch = batch;
        this.reclaim = pool::free;
    }

    @Override
    public int doWork() {
        return emit(batch);
    }

    /** Puts up to {@code limit} packets that are due on their receive rings; returns the work done. */
    int emit(final int limit) {
        int work = returns.drain(reclaim, Integer.MAX_VALUE);
        final long now = clock.nowPicos();
        for (int emitted = 0; emitted < limit && source.nextTime() <= now; emitted++) {
            emit(now);
            work++;
        }
        quiet = source.nextTime() == Long.MAX_VALUE && pool.inUse() == 0;
        // Every arrival up to here has been handed to the pipelines.
        horizonPicos = source.nextTime() > now ? now : source.nextTime() - 1;
        if (work > 0) {
            workCycles++;
        }
        return work;
    }

    private void emit(final long now) {
        final long due = source.nextTime();
        final int handle = TrafficSource.take(source, pool, recorder);
        if (handle == PacketPool.NO_PACKET) {
            return;
        }
        pool.arrivalPicos(handle, due);
        maxLagPicos = Math.max(maxLagPicos, now - due);
        if (capture != null) {
            capture.received(pool.ingressPort(handle), due, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
        if (!rxRings[assembly.pipelineOf(pool.ingressPort(handle))].offer(handle)) {
            recorder.dropped(pool.flow(handle), DropReason.RX_OVERFLOW);
            pool.free(handle);
        }
    }

    /** How late, at worst, a packet was put on its receive ring after it was due. */
    long maxLagPicos() {
        return maxLagPicos;
    }

    long workCycles() {
        return workCycles;
    }

    /** The switch time up to which every arrival is on a receive ring. */
    long horizonPicos() {
        return horizonPicos;
    }

    /** Every workload packet has been sent and every buffer has come back: nothing is left in the switch. */
    boolean quiet() {
        return quiet;
    }

    void capture(final FrameCapture frames) {
        this.capture = frames;
    }

    void reset() {
        maxLagPicos = 0;
        workCycles = 0;
        quiet = false;
        horizonPicos = Long.MIN_VALUE;
    }

    @Override
    public String roleName() {
        return "ports";
    }
}
