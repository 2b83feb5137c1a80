package io.trimswitch.simulator;

import io.trimswitch.trafficmanager.EgressTransmitter;

/**
 * A port's transmissions end when the traffic manager next looks at its queues, or at the end of the run: in an
 * open-loop or replay run a port's packets go nowhere but out, so no heap event per packet is needed, and each
 * transmission ends exactly when its event would have.
 */
final class LazyEgress implements EgressTiming {
    private final EgressTransmitter[] ports;
    private long ended;

    LazyEgress(final EgressTransmitter[] ports) {
        this.ports = ports;
    }

    @Override
    public void beforeEnqueue(final int port, final long time) {
        ended += ports[port].advanceTo(time);
    }

    @Override
    public void pending(final int port, final long time) {
        ended += ports[port].advanceTo(time);
    }

    @Override
    public void transmissionDone(final int port, final long time) {
        throw new IllegalStateException("lazy egress schedules no transmission events");
    }

    @Override
    public void endRun(final long end) {
        for (final EgressTransmitter port : ports) {
            ended += port.advanceTo(end);
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
