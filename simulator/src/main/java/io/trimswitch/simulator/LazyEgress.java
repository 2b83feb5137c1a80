package io.trimswitch.simulator;

import io.trimswitch.trafficmanager.EgressPort;

/**
 * A port's transmissions end when the traffic manager next looks at its queues, or at the end of the run: in an
 * open-loop or replay run a port's packets go nowhere but out, so no heap event per packet is needed, and each
 * transmission ends exactly when its event would have.
 */
final class LazyEgress implements EgressTiming {
    private final EgressPort[] ports;
    private final EgressPort.Departures delivery;
    private long ended;

    LazyEgress(final EgressPort[] ports, final EgressPort.Departures delivery) {
        this.ports = ports;
        this.delivery = delivery;
    }

    @Override
    public void beforeEnqueue(final int port, final long time) {
        final EgressPort egress = ports[port];
        // Idle, nothing waits in order: the common case, a port still sending, costs one look.
        if (egress.nextDue() <= time) {
            ended += egress.advanceTo(time, true, delivery);
        }
    }

    @Override
    public void pending(final int port, final long time) {
        ended += ports[port].advanceTo(time, true, delivery);
    }

    @Override
    public void transmissionDone(final int port, final long time) {
        throw new IllegalStateException("lazy egress schedules no transmission events");
    }

    @Override
    public void endRun(final long end) {
        for (final EgressPort port : ports) {
            ended += port.advanceTo(end, true, delivery);
        }
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
