package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * Chooses which of a port's data queues sends next, as SONiC's SCHEDULER table configures it: strict-priority
 * queues first, the highest-numbered one that has a packet; then the dwrr queues by deficit weighted round robin
 * (Shreedhar and Varghese), in which each queue, on its turn, may send up to its weight's share of bytes. With one
 * data queue it always chooses queue 0.
 */
public final class DataQueueScheduler {
    /** Bytes a queue of weight 1 may send per turn: enough for the largest frame a buffer holds. */
    static final int QUANTUM_BYTES = PacketPool.SLOT_BYTES;

    private final boolean[] strict;
    private final int[] quantum;
    private final long[] deficit;
    /** The dwrr queue whose turn it is, and whether it has had its quantum for this turn. */
    private int turn;
    private boolean credited;

    /** @param strict per queue, true for strict priority; @param weights per queue, its dwrr weight */
    public DataQueueScheduler(final boolean[] strict, final int[] weights) {
        if (strict.length != weights.length || strict.length == 0) {
            throw new IllegalArgumentException("one scheduling and one weight per queue, at least one queue");
        }
        this.strict = strict.clone();
        this.quantum = new int[weights.length];
        for (int queue = 0; queue < weights.length; queue++) {
            if (weights[queue] < 1) {
                throw new IllegalArgumentException("queue " + queue + ": weight must be at least 1, got " + weights[queue]);
            }
            quantum[queue] = weights[queue] * QUANTUM_BYTES;
        }
        this.deficit = new long[weights.length];
    }

    /** One dwrr queue of weight 1: the reproduced switch's single data queue. */
    public static DataQueueScheduler single() {
        return new DataQueueScheduler(new boolean[] {false}, new int[] {1});
    }

    public int queues() {
        return strict.length;
    }

    /**
     * The queue to send from among those whose head was queued by {@code readyBy} (virtual time: any head), or -1
     * when none may send.
     */
    public int choose(final HandleQueue[] queues, final PacketPool pool, final long readyBy) {
        if (queues.length == 1) {
            return ready(queues[0], pool, readyBy) ? 0 : -1;
        }
        for (int queue = queues.length - 1; queue >= 0; queue--) {
            if (strict[queue] && ready(queues[queue], pool, readyBy)) {
                return queue;
            }
        }
        return roundRobin(queues, pool, readyBy);
    }

    private int roundRobin(final HandleQueue[] queues, final PacketPool pool, final long readyBy) {
        boolean anyReady = false;
        for (int queue = 0; queue < queues.length; queue++) {
            if (!strict[queue] && ready(queues[queue], pool, readyBy)) {
                anyReady = true;
                break;
            }
        }
        if (!anyReady) {
            return -1;
        }
        while (true) {
            final int queue = turn;
            if (!strict[queue] && ready(queues[queue], pool, readyBy)) {
                if (!credited) {
                    deficit[queue] += quantum[queue];
                    credited = true;
                }
                final int length = pool.length(queues[queue].peek());
                if (length <= deficit[queue]) {
                    deficit[queue] -= length;
                    return queue;
                }
            } else if (!strict[queue] && queues[queue].isEmpty()) {
                // An empty queue keeps no credit, so that it cannot save up a burst.
                deficit[queue] = 0;
            }
            turn = (turn + 1) % queues.length;
            credited = false;
        }
    }

    private static boolean ready(final HandleQueue queue, final PacketPool pool, final long readyBy) {
        if (queue.isEmpty()) {
            return false;
        }
        if (readyBy == Long.MAX_VALUE) {
            return true;
        }
        final int head = queue.peek();
        return head != PacketPool.NO_PACKET && pool.queuedPicos(head) <= readyBy;
    }

    public void reset() {
        java.util.Arrays.fill(deficit, 0);
        turn = 0;
        credited = false;
    }
}
