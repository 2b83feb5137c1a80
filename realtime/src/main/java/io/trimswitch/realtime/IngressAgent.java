package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipelines.IngressPipeline;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.Agent;

/**
 * One ingress pipeline on a thread: it takes its ports' packets from the receive ring in batches and runs
 * each through parse → forwarding → meters → trim decision → the traffic manager's rings. NOTIFYs from
 * the recirculation threads wait in its inbox and are applied at their due time, between packets, in the
 * order virtual time applies them: a packet arriving at the instant a NOTIFY is due is metered first.
 */
public final class IngressAgent implements Agent, HandleRing.HandleConsumer {
    private final IngressPipeline pipeline;
    private final PacketPool pool;
    /** Null when the pipeline's shard hands it each packet ({@link #accept}) rather than a ports agent filling a ring. */
    private final HandleRing rxRing;
    private final NotifyInboxes.Reader inbox;
    private final DilatedClock clock;
    private final int batch;
    private long workCycles;
    private long maxLagPicos;
    /** Null unless the agents share this thread: then egress and recirculation are brought up to each arrival. */
    /** Brings the other agents of this thread up to each arrival before it is metered; null when they run on threads of their own. */
    private CatchUp barrier;

    public IngressAgent(
        final IngressPipeline pipeline, final PacketPool pool, final HandleRing rxRing, final NotifyInboxes.Reader inbox,
        final DilatedClock clock, final int batch) {
        this.clock = clock;
        this.pipeline = pipeline;
        this.pool = pool;
        this.rxRing = rxRing;
        this.inbox = inbox;
        this.batch = batch;
    }

    @Override
    public int doWork() {
        int work = inbox.drain();
        final int oldest = rxRing == null ? PacketPool.NO_PACKET : rxRing.peek();
        if (oldest != PacketPool.NO_PACKET) {
            // The oldest waiting packet tells how far behind its ports this pipeline runs.
            maxLagPicos = Math.max(maxLagPicos, clock.nowPicos() - pool.arrivalPicos(oldest));
            work += rxRing.drain(this, batch);
        }
        if (work > 0) {
            workCycles++;
        }
        return work;
    }

    @Override
    public void accept(final int handle) {
        final long arrival = pool.arrivalPicos(handle);
        if (barrier != null) {
            // Virtual time's order: whatever happens before the arrival, then the arrival, then the instant's events.
            barrier.advanceTo(CatchUp.horizon(arrival, true));
            inbox.drain();
        }
        applyNotifiesBefore(arrival);
        pipeline.receive(handle, arrival);
    }

    /** Applies every NOTIFY due before {@code time}; a state only matters when a packet is metered. */
    void applyNotifiesBefore(final long time) {
        final TimedIntFifo pending = inbox.pending();
        while (!pending.isEmpty() && pending.headTime() < time) {
            final long due = pending.headTime();
            pipeline.onCongestionNotify(pending.removeHead(), due);
        }
    }

    void barrier(final CatchUp before) {
        this.barrier = before;
    }

    /** How late, at worst, a packet was metered after it had arrived. */
    long maxLagPicos() {
        return maxLagPicos;
    }

    long workCycles() {
        return workCycles;
    }

    void reset() {
        inbox.drain();
        inbox.pending().clear();
        workCycles = 0;
        maxLagPicos = 0;
    }

    @Override
    public String roleName() {
        return "ingress-" + pipeline.id();
    }
}
