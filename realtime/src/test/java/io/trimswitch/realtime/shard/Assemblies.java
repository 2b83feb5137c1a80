package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.TrafficManagerEvents;

/** A switch's components for a stage test to drive on its own thread, whose traffic manager must drop nothing. */
final class Assemblies {
    private Assemblies() {
    }

    static AssembledSwitch of(final Settings settings, final PacketPool pool) {
        return new AssembledSwitch(settings, pool, CounterRegistry.inMemory(AssembledSwitch.counters(settings, 0)), new TrafficManagerEvents() {
            @Override
            public void drop(final int handle, final DropReason reason, final long now) {
                throw new AssertionError("dropped for " + reason.label());
            }

            @Override
            public void egressPending(final int port, final long now) {
            }

            @Override
            public void recirculationPending(final int pipeline, final long now) {
            }
        }, due -> { }, AssembledSwitch.defaultForwarding(settings));
    }
}
