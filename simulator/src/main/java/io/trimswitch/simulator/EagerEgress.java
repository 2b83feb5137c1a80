package io.trimswitch.simulator;

import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;

/**
 * Each transmission ends by an event of its own. Needed whenever something watches deliveries across ports in time
 * order: NDP hosts that answer every delivery, captures, the timeline.
 */
final class EagerEgress implements EgressTiming {
    /** The switch's ports, kept here: one array on the way to a port, not the assembly and its array. */
    private final EgressPort[] ports;
    private final EndHosts.Switch events;
    private final Delivery delivery;
    /** The network number of the switch's port 0: an event names a port by its network number. */
    private final int portBase;

    EagerEgress(final AssembledSwitch assembly, final EndHosts.Switch events, final Delivery delivery, final int portBase) {
        this.ports = new EgressPort[assembly.ports()];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = assembly.port(port);
        }
        this.events = events;
        this.delivery = delivery;
        this.portBase = portBase;
    }

    @Override
    public void beforeEnqueue(final int port, final long time) {
    }

    @Override
    public void pending(final int port, final long time) {
        start(port, time);
    }

    @Override
    public void transmissionDone(final int port, final long time) {
        delivery.deliver(port, ports[port].finishTransmission(), time);
        start(port, time);
    }

    private void start(final int port, final long time) {
        final long done = ports[port].startTransmission(time);
        if (done >= 0) {
            events.schedule(done, EventType.EGRESS_DONE, portBase + port);
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
