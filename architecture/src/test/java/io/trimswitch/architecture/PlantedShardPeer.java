package io.trimswitch.architecture;

import io.trimswitch.realtime.shard.PipelineShard;

/** A class that keeps the other shards to call into them: what {@link ShardChannelsTest} plants. */
final class PlantedShardPeer {
    private final PipelineShard[] peers;

    PlantedShardPeer(final PipelineShard[] peers) {
        this.peers = peers.clone();
    }

    long donePeers() {
        long done = Long.MAX_VALUE;
        for (final PipelineShard peer : peers) {
            done = Math.min(done, peer.doneThrough());
        }
        return done;
    }
}
