package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipelines.IngressPipeline;

/**
 * One ingress pipeline on its shard's thread: the shard hands it each packet as it arrives, and it runs the packet
 * through parse → forwarding → meters → trim decision → the traffic manager's rings. NOTIFYs from the recirculation
 * ports wait in its inbox and are applied at their due time, between packets, in the order virtual time applies
 * them: a packet arriving at the instant a NOTIFY is due is metered first. Whatever must happen before an arrival
 * (recirculation and egress brought up to it) the shard's order does before it hands the packet in.
 */
public final class IngressStage {
    private final IngressPipeline pipeline;
    private final PacketPool pool;
    private final NotifyInboxes.Reader inbox;

    public IngressStage(final IngressPipeline pipeline, final PacketPool pool, final NotifyInboxes.Reader inbox) {
        this.pipeline = pipeline;
        this.pool = pool;
        this.inbox = inbox;
    }

    /** NOTIFYs that came since the last look, into the pipeline's own FIFO; returns how many. */
    public int drainInbox() {
        return inbox.drain();
    }

    /** Meters packet {@code handle}, which has arrived. */
    public void accept(final int handle) {
        final long arrival = pool.arrivalPicos(handle);
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

    void reset() {
        inbox.drain();
        inbox.pending().clear();
    }
}
