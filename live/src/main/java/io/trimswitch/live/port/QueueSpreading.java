package io.trimswitch.live.port;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.QueueReader;
import io.trimswitch.interfaces.SpreadQueues;
import io.trimswitch.realtime.shard.ShardOwnership;
import io.trimswitch.realtime.shard.ShardedDataplane;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The receive queues of the live switch's interface ports dealt round its shards ({@link ShardOwnership#receiveShard}:
 * queue i of a port on shard (owner + i) mod shards), so that a port of several queues keeps several cores busy. The
 * port's own shard reads its own queues and sends; every other shard given some of them reads those through a
 * {@link QueueReader} and meters their frames in its own pipeline. Counters stay the port's: each thread counts what it
 * read under its own name, and a port's counters are the sum. The port's queues in the switch (its 16-packet data
 * queue, its egress) stay on its own shard, as on a Tofino.
 */
public final class QueueSpreading {
    private QueueSpreading() {
    }

    /**
     * {@code attachments}, each port of several queues on several shards made a {@link SpreadQueues} whose other queues
     * {@code ports}' shards read; before those shards take their own ports.
     */
    public static Map<Integer, InterfacePorts.Attachment> spread(final Map<Integer, InterfacePorts.Attachment> attachments, final ShardedDataplane dataplane,
        final LivePorts[] ports, final CounterRegistry counters) {
        final ShardOwnership owners = dataplane.ownership();
        final Map<Integer, InterfacePorts.Attachment> spread = new LinkedHashMap<>(attachments);
        for (final InterfacePorts.Attachment attachment : attachments.values()) {
            final int port = attachment.port();
            final int[] threads = threads(owners, port, attachment.queues());
            final int owner = owners.ingressShardOfPort(port);
            if (IntStream.of(threads).allMatch(thread -> thread == owner)) {
                continue;
            }
            final List<QueueReader> readers = new ArrayList<>();
            for (int shard = 0; shard < owners.shards(); shard++) {
                final int[] queues = queuesOn(threads, shard);
                if (shard != owner && queues.length > 0) {
                    final QueueReader reader = new QueueReader(port, queues, counters, "sockets-" + shard, shard);
                    ports[shard].readQueues(reader);
                    readers.add(reader);
                }
            }
            spread.put(port, new InterfacePorts.Attachment(port, attachment.interfaceName(),
                new SpreadQueues(attachment.kind(), queuesOn(threads, owner), readers, placement(threads)), attachment.queues()));
        }
        return spread;
    }

    /** Per receive queue of {@code port}, of {@code queues}, the shard that reads it. */
    public static int[] threads(final ShardOwnership owners, final int port, final int queues) {
        return IntStream.range(0, queues).map(queue -> owners.receiveShard(port, queue)).toArray();
    }

    private static int[] queuesOn(final int[] threads, final int shard) {
        return IntStream.range(0, threads.length).filter(queue -> threads[queue] == shard).toArray();
    }

    /** Which thread reads which queues, for the start-up line: {@code receive queues 0 2 on thread 0, 1 3 on thread 1}. */
    static String placement(final int[] threads) {
        return "receive queues " + IntStream.of(threads).distinct().sorted()
            .mapToObj(thread -> IntStream.of(queuesOn(threads, thread)).mapToObj(Integer::toString).collect(Collectors.joining(" ")) + " on thread " + thread)
            .collect(Collectors.joining(", "));
    }
}
