package io.trimswitch.simulator;

import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;

/**
 * A port's transmissions end when the traffic manager next looks at its queues, or at the end of the run: in an
 * open-loop or replay run a port's packets go nowhere but out, so no heap event per packet is needed, and each
 * transmission ends exactly when its event would have.
 */
final class LazyEgress implements EgressTiming {
    private final AssembledSwitch assembly;
    /** Where a packet goes that left: made once, not on each look. */
    private final EgressPort.Departures delivery;
    private long ended;

    LazyEgress(final AssembledSwitch assembly, final Delivery delivery) {
        this.assembly = assembly;
        this.delivery = delivery::deliver;
    }

    @Override
    public void beforeEnqueue(final int port, final long time) {
        finishUntil(port, time);
    }

    @Override
    public void pending(final int port, final long time) {
        assembly.port(port).startTransmission(time);
    }

    @Override
    public void transmissionDone(final int port, final long time) {
        throw new IllegalStateException("lazy egress schedules no transmission events");
    }

    @Override
    public void endRun(final long end) {
        for (int port = 0; port < assembly.ports(); port++) {
            finishUntil(port, end);
        }
    }

    /**
     * Ends every transmission of {@code port} done by {@code time}, starting the next as each ends: the timing a real-time
     * shard's egress uses too. Every packet waiting was queued by the time the one in service ends (the port was brought
     * up to each enqueue first), so the next starts the instant the last ended, as an event would have started it.
     */
    private void finishUntil(final int port, final long time) {
        ended += assembly.port(port).advanceTo(time, delivery);
    }

    @Override
    public long eventsReplaced() {
        return ended;
    }

    @Override
    public void reset() {
        ended = 0;
    }
}
