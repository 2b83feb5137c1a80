package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.Agent;

import java.util.List;

/**
 * Every agent of a generated-traffic switch on one thread, kept in virtual time's order. The ports emit
 * what is due; the pipelines meter it, each packet after recirculation and egress have been brought up to
 * its arrival; then recirculation and egress advance only as far as every arrival before that time has
 * been metered, never to a clock reading that packets still on their way would precede.
 */
final class LockstepAgent implements Agent {
    private final PortsAgent ports;
    private final List<IngressAgent> ingress;
    private final CatchUp catchUp;
    private final HandleRing[] rxRings;
    private final PacketPool pool;
    private final int batch;

    LockstepAgent(
        final PortsAgent ports, final List<IngressAgent> ingress, final CatchUp catchUp, final HandleRing[] rxRings, final PacketPool pool,
        final int batch) {
        this.batch = batch;
        this.ports = ports;
        this.ingress = ingress;
        this.catchUp = catchUp;
        this.rxRings = rxRings;
        this.pool = pool;
    }

    @Override
    public int doWork() {
        int work = 0;
        // One packet at a time, so the pipelines meter and enqueue in the order the packets arrived, across
        // pipelines too: packets arriving at the same instant meet the shared queues in virtual time's order.
        for (int packet = 0; packet < batch; packet++) {
            final int emitted = ports.emit(1);
            for (final IngressAgent agent : ingress) {
                work += agent.doWork();
            }
            work += emitted;
            if (emitted == 0) {
                break;
            }
        }
        long horizon = ports.horizonPicos();
        for (final HandleRing ring : rxRings) {
            final int waiting = ring.peek();
            if (waiting != PacketPool.NO_PACKET) {
                horizon = Math.min(horizon, CatchUp.horizon(pool.arrivalPicos(waiting), true));
            }
        }
        return work + catchUp.advanceTo(horizon);
    }

    @Override
    public String roleName() {
        return "switch";
    }
}
