package io.trimswitch.network;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipeline.ForwardingStage;
import io.trimswitch.recirc.DelayedNotifications;
import io.trimswitch.runtime.EventType;
import io.trimswitch.runtime.SwitchFabric;
import io.trimswitch.tm.QueueFactory;
import io.trimswitch.tm.TrafficManagerEvents;

/**
 * One switch of a network: its components, wired for its mechanism exactly as a lone switch's are, and where its
 * ports and recirculation ports sit in the network's numbering. It hands what its traffic manager asks for to the
 * network's run, and counts its own drops.
 */
final class SwitchNode implements TrafficManagerEvents {
    final int id;
    final String name;
    final String tier;
    final Settings settings;
    final SwitchFabric fabric;
    /** Network number of this switch's port 0, and of its recirculation port 0. */
    final int portBase;
    final int recirculationBase;
    private final long[] drops = new long[DropReason.values().length];
    private final NetworkRun run;

    SwitchNode(final NetworkRun run, final int id, final String name, final String tier, final Settings settings, final PacketPool pool,
        final ForwardingStage forwarding, final int portBase, final int recirculationBase) {
        this.run = run;
        this.id = id;
        this.name = name;
        this.tier = tier;
        this.settings = settings;
        this.portBase = portBase;
        this.recirculationBase = recirculationBase;
        this.fabric = new SwitchFabric(settings, pool, QueueFactory.SINGLE_THREADED, this, SwitchFabric.TrafficManagerThreads.ONE,
            pipelines -> new DelayedNotifications(pipelines, due -> run.schedule(due, EventType.NOTIFY, id)), forwarding);
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long now) {
        drops[reason.ordinal()]++;
        run.drop(handle, reason);
    }

    @Override
    public void egressPending(final int port, final long now) {
        run.startEgress(this, port, now);
    }

    @Override
    public void recirculationPending(final int pipeline, final long now) {
        if (fabric.recirculation(pipeline).isIdle()) {
            run.startRecirculation(this, pipeline, now);
        }
    }

    long drops(final DropReason reason) {
        return drops[reason.ordinal()];
    }

    void reset() {
        fabric.reset();
        java.util.Arrays.fill(drops, 0);
    }
}
