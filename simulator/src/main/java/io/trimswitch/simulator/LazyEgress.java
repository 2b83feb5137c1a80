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
    private final Delivery delivery;
    private long ended;

    LazyEgress(final AssembledSwitch assembly, final Delivery delivery) {
        this.assembly = assembly;
        this.delivery = delivery;
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

    /** Ends every transmission of {@code port} done by {@code time}, starting the next as each ends. */
    private void finishUntil(final int port, final long time) {
        final EgressPort egress = assembly.port(port);
        while (!egress.isIdle() && egress.busyUntil() <= time) {
            final long end = egress.busyUntil();
            ended++;
            delivery.deliver(port, egress.finishTransmission(), end);
            egress.startTransmission(end);
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
