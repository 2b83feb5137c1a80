package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.trafficmanager.DataQueueScheduler;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.trafficmanager.HandleRing;

/**
 * Packets for the ports of another pipeline thread, handed over to it instead of queued by the thread
 * that decided them. A port's data queue holds 16 packets in switch time; queued from one thread and
 * drained by another that the OS has not run for a while, it would fill in wall time although its port
 * was never busy in switch time. So only the thread that owns a port queues into it: others hand it each
 * packet, stamped with the instant it reached the traffic manager, and the owner queues it at that
 * instant, after bringing its egress up to it, as the traffic manager would have.
 */
final class PortHandoff {
    private static final int HEADER = 1;

    private final HandleRing inbox;

    /**
     * @param capacity      at least the pool: every packet could be on its way to one thread
     * @param manyProducers whether several threads hand over through it, or one (a shard's own channel to the
     *                      traffic manager's, whose packets are then in that shard's order)
     */
    PortHandoff(final int capacity, final boolean manyProducers) {
        this.inbox = new HandleRing(capacity, manyProducers);
    }

    /**
     * A stand-in for {@code port} in another thread's view of the traffic manager: its queues hand packets over. It
     * never transmits, so it names the port's own counters (in the switch's registry) and never writes them.
     */
    EgressPort standIn(final EgressPort port, final PacketPool pool, final int headersPerData) {
        if (port.dataQueueCount() == 1) {
            return new EgressPort(port.id(), port.rate(), pool, new HandleQueue[] {new Sender(0)}, DataQueueScheduler.single(), new Sender(HEADER),
                headersPerData, port.counters());
        }
        // The owner queues each packet into its traffic class's queue; the stand-in only needs as many queues.
        final HandleQueue[] data = new HandleQueue[port.dataQueueCount()];
        java.util.Arrays.fill(data, new Sender(0));
        final boolean[] strict = new boolean[data.length];
        final int[] weights = new int[data.length];
        java.util.Arrays.fill(weights, 1);
        return new EgressPort(port.id(), port.rate(), pool, data, new DataQueueScheduler(strict, weights), new Sender(HEADER), headersPerData,
            port.counters());
    }

    /** Takes the next handed-over packet: its handle, or {@link PacketPool#NO_PACKET}. */
    int poll() {
        return inbox.poll();
    }

    static int handle(final int entry) {
        return entry >>> 1;
    }

    static boolean isHeader(final int entry) {
        return (entry & HEADER) != 0;
    }

    boolean isEmpty() {
        return inbox.isEmpty();
    }

    /** One of a stand-in's queues: what it is offered goes to the owner; nothing is ever taken from it here. */
    private final class Sender implements HandleQueue {
        private final int kind;

        Sender(final int kind) {
            this.kind = kind;
        }

        @Override
        public boolean offer(final int handle) {
            return inbox.offer(handle << 1 | kind);
        }

        @Override
        public int poll() {
            return PacketPool.NO_PACKET;
        }

        @Override
        public int peek() {
            return PacketPool.NO_PACKET;
        }

        @Override
        public int size() {
            return 0;
        }

        @Override
        public boolean isEmpty() {
            return true;
        }

        @Override
        public int capacity() {
            return inbox.capacity();
        }

        @Override
        public int maxDepth() {
            return 0;
        }

        @Override
        public long enqueued() {
            return 0;
        }

        @Override
        public long rejected() {
            return 0;
        }

        @Override
        public void reset() {
        }
    }
}
