package io.trimswitch.realtime;

import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.EgressPort;
import org.agrona.concurrent.Agent;

/**
 * A group of egress ports on a thread: each port serialises one packet at a time at its rate, choosing
 * between its header and data rings with the port's scheduler, and hands what has left to its
 * {@link Departures}: the receivers' records in a run, the port's socket in a live switch. A port that stays busy starts its next packet the instant the last
 * one finished, however late the thread looks, so the link's rate is kept exactly.
 */
final class EgressAgent implements Agent, CatchUp.Stage {
    /** Where a packet goes once its last bit has left its port; the packet's buffer goes with it. */
    @FunctionalInterface
    interface Departures {
        void departed(int port, int handle, long time);
    }

    private final String name;
    private final EgressPort[] ports;
    private final Departures departures;
    private final DilatedClock clock;
    private long lastPacketPicos;
    private long workCycles;

    EgressAgent(final String name, final EgressPort[] ports, final Departures departures, final DilatedClock clock) {
        this.name = name;
        this.ports = ports;
        this.departures = departures;
        this.clock = clock;
    }

    @Override
    public int doWork() {
        return advanceTo(clock.nowPicos());
    }

    /** Does everything due by switch time {@code now}; returns how much. */
    @Override
    public int advanceTo(final long now) {
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
                final long done = port.startTransmissionAfter(freeSince, now);
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
        departures.departed(port, handle, time);
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
