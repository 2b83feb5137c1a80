package io.trimswitch.realtime;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.ports.RegisteredKind;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;

import java.util.function.Supplier;

/**
 * A kind of port a real-time scenario's shards hold, found by its name ({@code generated}) as every port kind is
 * ({@link io.trimswitch.dataplane.ports.PortKinds}): where the workload's packets come in and what records them going out.
 */
public interface ScenarioPortKind extends RegisteredKind {
    /**
     * Each shard's ports of this kind, on {@code dataplane}'s shards in order, reading their own settings from
     * {@code settings}: {@code source}'s packets come in, and each shard records what leaves into a recorder of its own
     * from {@code recorders}.
     */
    ScenarioPorts[] open(Settings settings, ShardedDataplane dataplane, TrafficSource source, Supplier<RunRecorder> recorders);
}
