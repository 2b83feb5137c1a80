package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.runtime.FrameCapture;
import io.trimswitch.runtime.RunRecorder;
import io.trimswitch.tm.EgressPort;
import org.agrona.concurrent.Agent;

/**
 * A group of egress ports on a thread: each port serialises one packet at a time at its rate, choosing
 * between its header and data rings with the port's scheduler, and hands what has left to its sink,
 * which records it for the receivers. A port that stays busy starts its next packet the instant the last
 * one finished, however late the thread looks, so the link's rate is kept exactly.
 */
final class EgressAgent implements Agent {
    private final String name;
    private final EgressPort[] ports;
    private final PacketPool pool;
    private final RunRecorder recorder;
    private final AgentEvents.Release release;
    private final DilatedClock clock;
    private long lastPacketPicos;
    private long workCycles;
    private FrameCapture capture;

    EgressAgent(
        final String name, final EgressPort[] ports, final PacketPool pool, final RunRecorder recorder,
        final AgentEvents.Release release, final DilatedClock clock) {
        this.name = name;
        this.ports = ports;
        this.pool = pool;
        this.recorder = recorder;
        this.release = release;
        this.clock = clock;
    }

    @Override
    public int doWork() {
        final long now = clock.nowPicos();
        int work = 0;
        for (final EgressPort port : ports) {
            long freeSince = port.busyUntil();
            if (!port.isIdle()) {
                if (now < port.busyUntil()) {
                    continue;
                }
                freeSince = port.busyUntil();
                deliver(port.id(), port.finishTransmission(), freeSince);
                work++;
            }
            // Several packets may have finished since the last look: each starts when the one before it ended.
            while (port.hasWaiting()) {
                final long done = port.startTransmissionAfter(freeSince);
                if (done < 0 || done > now) {
                    break;
                }
                deliver(port.id(), port.finishTransmission(), done);
                freeSince = done;
                work++;
            }
        }
        if (work > 0) {
            workCycles++;
        }
        return work;
    }

    private void deliver(final int port, final int handle, final long time) {
        lastPacketPicos = Math.max(lastPacketPicos, time);
        if (capture != null) {
            capture.sent(port, time, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
        recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), time);
        release.release(handle);
    }

    void capture(final FrameCapture frames) {
        this.capture = frames;
    }

    long lastPacketPicos() {
        return lastPacketPicos;
    }

    long workCycles() {
        return workCycles;
    }

    void reset() {
        lastPacketPicos = 0;
        workCycles = 0;
    }

    @Override
    public String roleName() {
        return name;
    }
}
