package io.trimswitch.realtime.generated;

import io.trimswitch.config.Settings;
import io.trimswitch.realtime.ScenarioPortKind;
import io.trimswitch.realtime.ScenarioPorts;
import io.trimswitch.realtime.shard.PublishedTime;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.trafficmanager.HandleRing;

import java.util.function.Supplier;

/**
 * The {@code generated} kind: a scenario's workload written into the pool when due, on the first shard, and handed to the
 * shards that own its ports over a ring each ({@link GeneratedPorts}). Its settings: {@code realtime.batchPackets}
 * packets a turn at most, and {@code realtime.rxRingPackets} on each ring.
 */
public final class Generated implements ScenarioPortKind {
    @Override
    public String name() {
        return "generated";
    }

    @Override
    public ScenarioPorts[] open(final Settings settings, final ShardedDataplane dataplane, final TrafficSource source,
        final Supplier<RunRecorder> recorders) {
        final int shards = dataplane.shards();
        final HandleRing[] rings = new HandleRing[shards];
        for (int shard = 1; shard < shards; shard++) {
            rings[shard] = new HandleRing(settings.realtime().rxRingPackets(), false);
        }
        final PublishedTime generated = new PublishedTime(0);
        final ScenarioPorts[] ports = new ScenarioPorts[shards];
        for (int shard = 0; shard < shards; shard++) {
            ports[shard] = new GeneratedPorts(dataplane.shard(shard), dataplane, recorders.get(), shard == 0 ? source : null,
                rings, rings[shard], settings.realtime().batchPackets(), generated);
        }
        return ports;
    }
}
