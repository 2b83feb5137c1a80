package io.trimswitch.trafficmanager;

/**
 * When an egress port's next packet leaves and what happens then, whichever clock drives it: the port's next event is
 * its own, as an htsim queue's is. Each packet starts the instant the one before it ended (the link's rate is kept
 * exactly), or when it was queued if the port was idle. The engine says only how it is woken: virtual time at the
 * port's {@link #nextDue()} or before it queues for the port, a real-time shard once a turn, however late.
 */
public final class EgressTransmitter {
    /** Where a packet goes once its last bit has left its port; the packet's buffer goes with it. */
    @FunctionalInterface
    public interface Departures {
        void departed(int port, int handle, long time);
    }

    private final EgressPort port;
    private final int id;
    private final Departures departures;
    /**
     * Whether every queued packet was queued by the instant the port came free, and one queued for an idle port was
     * queued at the instant it is woken: true in virtual time, which looks at the port before each enqueue and when a
     * transmission ends. The port then takes whatever waits ({@link EgressPort#startTransmission}) rather than read
     * each queue head's time ({@link EgressPort#startTransmissionAfter}): the same choice, found faster.
     */
    private final boolean inOrder;

    private EgressTransmitter(final EgressPort port, final Departures departures, final boolean inOrder) {
        this.port = port;
        this.id = port.id();
        this.departures = departures;
        this.inOrder = inOrder;
    }

    /** For an engine that looks at the port at every instant something changes for it (virtual time). */
    public static EgressTransmitter inOrder(final EgressPort port, final Departures departures) {
        return new EgressTransmitter(port, departures, true);
    }

    /** For an engine that looks at the port later than things happen, while other threads queue for it (a shard). */
    public static EgressTransmitter late(final EgressPort port, final Departures departures) {
        return new EgressTransmitter(port, departures, false);
    }

    /**
     * Ends every transmission done by {@code now}, each handed to the departures at the instant it ended, and starts
     * each next one at that instant; a packet that cannot end by {@code now} stays in service. Returns how many ended.
     */
    public int advanceTo(final long now) {
        int ended = 0;
        long free = port.busyUntil();
        if (!port.isIdle()) {
            if (now < free) {
                return 0;
            }
            departures.departed(id, port.finishTransmission(), free);
            ended++;
        } else if (inOrder) {
            // Idle, so whatever waits was queued just now.
            free = Math.max(free, now);
        }
        while (true) {
            final long done = inOrder ? port.startTransmission(free) : port.startTransmissionAfter(free, now);
            if (done < 0 || done > now) {
                return ended;
            }
            departures.departed(id, port.finishTransmission(), done);
            free = done;
            ended++;
        }
    }

    /** When the packet in service ends, or {@link Long#MAX_VALUE} when none is. */
    public long nextDue() {
        return port.isIdle() ? Long.MAX_VALUE : port.busyUntil();
    }

    public EgressPort port() {
        return port;
    }
}
