package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which shard reads each receive queue of a port: dealt round the shards from the port's own. */
class ShardOwnershipTest {
    private static final Settings FOUR_PIPELINES = Settings.DEFAULTS.withFabric(x -> x.withPipelines(4).withPortsPerPipeline(4));

    private static int[] queues(final ShardOwnership owners, final int port, final int count) {
        return IntStream.range(0, count).map(queue -> owners.receiveShard(port, queue)).toArray();
    }

    @Test
    void queueZeroIsTheOwnersAndTheOthersGoRoundTheShardsFromThere() {
        final ShardOwnership owners = new ShardOwnership(FOUR_PIPELINES, 4, false);
        // Port 5 is pipeline 1's, on shard 1.
        assertArrayEquals(new int[] {1, 2, 3, 0}, queues(owners, 5, 4));
        assertArrayEquals(new int[] {0, 1}, queues(owners, 0, 2));
        // More queues than shards: some shards read several.
        assertArrayEquals(new int[] {1, 2, 3, 0, 1, 2}, queues(owners, 5, 6));
    }

    @Test
    void oneShardReadsEveryQueue() {
        assertArrayEquals(new int[] {0, 0, 0}, queues(new ShardOwnership(FOUR_PIPELINES, 1, false), 9, 3));
    }

    @Test
    void aNegativeQueueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ShardOwnership(FOUR_PIPELINES, 2, false).receiveShard(0, -1));
    }
}
