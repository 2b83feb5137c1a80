package io.trimswitch.simulator;

import io.trimswitch.trafficmanager.EgressPort;

/**
 * Each transmission ends by an event of its own, at its port's next-due instant. Needed whenever something watches
 * deliveries across ports in time order: NDP hosts that answer every delivery, captures, the timeline.
 */
final class EagerEgress implements EgressTiming {
    private final EgressPort[] ports;
    private final EgressPort.Departures delivery;
    private final EndHosts.Switch events;
    /** The network number of the switch's port 0: an event names a port by its network number. */
    private final int portBase;

    EagerEgress(final EgressPort[] ports, final EgressPort.Departures delivery, final EndHosts.Switch events, final int portBase) {
        this.ports = ports;
        this.delivery = delivery;
        this.events = events;
        this.portBase = portBase;
    }

    @Override
    public void beforeEnqueue(final int port, final long time) {
    }

    @Override
    public void pending(final int port, final long time) {
        advance(port, time);
    }

    @Override
    public void transmissionDone(final int port, final long time) {
        advance(port, time);
    }

    private void advance(final int port, final long time) {
        final EgressPort egress = ports[port];
        egress.advanceTo(time, true, delivery);
        final long due = egress.nextDue();
        if (due != Long.MAX_VALUE) {
            events.schedule(due, EventType.EGRESS_DONE, portBase + port);
        }
    }

    @Override
    public void endRun(final long end) {
    }

    @Override
    public long eventsReplaced() {
        return 0;
    }

    @Override
    public void reset() {
    }
}
