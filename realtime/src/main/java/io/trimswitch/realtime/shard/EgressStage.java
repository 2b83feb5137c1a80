package io.trimswitch.realtime.shard;

import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.EgressPort;

/**
 * A group of egress ports on a thread: each port serialises one packet at a time at its rate, choosing
 * between its header and data rings with the port's scheduler, and hands what has left to its
 * {@link EgressPort.Departures}: the receivers' records in a run, the port's socket in a live switch. Each port owns its timing
 * ({@link EgressPort#advanceTo}), the same virtual time drives; the stage only looks once a turn, however late.
 */
final class EgressStage implements CatchUp.Stage {
    private EgressPort[] ports;
    private EgressPort.Departures departures;
    /** What every port hands its departures to: this stage's {@link #deliver}, bound once. */
    private final EgressPort.Departures deliver = this::deliver;
    /**
     * With every stage on one thread, the ports that may have work: busy, or with packets queued. The traffic manager
     * wakes a port as it queues for it on the same thread, so the stage looks at those alone rather than at every
     * port's rings before each arrival. Null: the ports are queued for from other threads, and all are looked at.
     */
    private long[] active;
    private long lastPacketPicos;

    /** By port id: the port's place in this group, or -1; for wake-ups, which name the port. */
    private int[] placeOf = new int[0];

    EgressStage(final EgressPort[] ports, final EgressPort.Departures departures) {
        this.ports = ports;
        this.departures = departures;
        for (int place = 0; place < ports.length; place++) {
            remember(place);
        }
    }

    /** What leaves the group goes to {@code to} from now on: the ports of the shard that runs it, once it has them. */
    void departTo(final EgressPort.Departures to) {
        this.departures = to;
    }

    private void remember(final int place) {
        final int id = ports[place].id();
        if (id >= placeOf.length) {
            final int old = placeOf.length;
            placeOf = java.util.Arrays.copyOf(placeOf, id + 1);
            java.util.Arrays.fill(placeOf, old, placeOf.length, -1);
        }
        placeOf[id] = place;
    }

    /** Does everything due by switch time {@code now}; returns how much. */
    @Override
    public int advanceTo(final long now) {
        int work = 0;
        if (active != null) {
            for (int word = 0; word < active.length; word++) {
                // Ascending port order, as the full look takes them.
                for (long bits = active[word]; bits != 0; bits &= bits - 1) {
                    final int index = (word << 6) + Long.numberOfTrailingZeros(bits);
                    final EgressPort port = ports[index];
                    work += port.advanceTo(now, false, deliver);
                    if (port.isIdle() && !port.hasWaiting()) {
                        active[word] &= ~(1L << index);
                    }
                }
            }
        } else {
            for (final EgressPort port : ports) {
                work += port.advanceTo(now, false, deliver);
            }
        }
        return work;
    }

    /** Port {@code port} of this group alone up to {@code now}: before a header returns to it at that instant. */
    void advancePort(final int port, final long now) {
        if (port < placeOf.length && placeOf[port] >= 0) {
            ports[placeOf[port]].advanceTo(now, false, deliver);
        }
    }

    /** On the shard's thread: one more port of the group, attached while the switch runs ({@code ctl add-port}). */
    void add(final EgressPort port) {
        ports = java.util.Arrays.copyOf(ports, ports.length + 1);
        ports[ports.length - 1] = port;
        remember(ports.length - 1);
        if (active != null) {
            active = java.util.Arrays.copyOf(active, (ports.length + 63) >> 6);
            wake(ports.length - 1);
        }
    }

    /** From now on only ports woken by {@link #wake} (or busy, or with packets queued) are looked at. */
    void lookOnlyAtWokenPorts() {
        active = new long[(ports.length + 63) >> 6];
        wakeAll();
    }

    /** The traffic manager queued for port {@code port} of this group, on this stage's thread. */
    void wakePort(final int port) {
        if (active != null && port < placeOf.length && placeOf[port] >= 0) {
            wake(placeOf[port]);
        }
    }

    private void wake(final int index) {
        if (active != null) {
            active[index >> 6] |= 1L << index;
        }
    }

    private void wakeAll() {
        for (int index = 0; index < ports.length; index++) {
            wake(index);
        }
    }

    private void deliver(final int port, final int handle, final long time) {
        lastPacketPicos = Math.max(lastPacketPicos, time);
        departures.departed(port, handle, time);
    }

    long lastPacketPicos() {
        return lastPacketPicos;
    }

    void reset() {
        lastPacketPicos = 0;
        if (active != null) {
            wakeAll();
        }
    }

}
