package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.Map;

/**
 * Forwarding by a learning bridge ({@code forwarding.mode: l2}), as a switch's ingress pipeline does it: the frame's
 * source is learned on its ingress port, its destination looked up. The one stage serves every pipeline, so it keeps a
 * copy of the bridge and a flood list per shard, and uses those of the shard that owns the frame's ingress port: each has
 * that shard's thread as its one writer, and the copies hear of each other's news through their {@link Listener}s, which
 * tell the other shards (each writes its own copy).
 */
public final class BridgeForwarding implements ForwardingStage {
    /**
     * Told what one shard's copy learned, on that shard's thread, so that the other copies learn it too: the other shards
     * write their copies themselves, on their own threads.
     */
    @FunctionalInterface
    public interface Listener {
        /** A frame from {@code mac} came in on {@code port} at {@code nowNanos}; {@code changed} when the copy called it news. */
        void learned(long mac, int port, long nowNanos, boolean changed);
    }

    private final LearningBridge[] bridges;
    /** Per shard: who hears its copy's news, or null (a lone shard). */
    private final Listener[] listeners;
    /** Per port of the fabric: the shard that owns it, whose copy its frames use. */
    private final int[] shardOfPort;
    /** Per shard: every port a flood goes to; that shard's thread alone changes it. */
    private final int[][] floodLists;

    /**
     * @param capacity      the most addresses each copy learns ({@code forwarding.macTableSize})
     * @param staticEntries MAC (48 bits) → port, never aged
     * @param shardOfPort   per port of the fabric, the shard that owns it
     * @param ports         the ports floods go to when the switch starts
     */
    public BridgeForwarding(final long agingNanos, final int capacity, final Map<Long, Integer> staticEntries, final int[] shardOfPort, final int[] ports,
        final int shards) {
        this.bridges = new LearningBridge[shards];
        this.listeners = new Listener[shards];
        this.floodLists = new int[shards][];
        for (int shard = 0; shard < shards; shard++) {
            bridges[shard] = new LearningBridge(agingNanos, capacity, staticEntries);
            floodLists[shard] = ports.clone();
        }
        this.shardOfPort = shardOfPort.clone();
    }

    /** Null, or the shard that meters a packet, by its buffer: where a port's frames are metered on several shards. */
    private java.util.function.IntUnaryOperator shardOfBuffer;

    /**
     * Before the shards run: a frame learns and looks up in the copy of the shard that meters it, {@code shardOfBuffer}
     * of its buffer, rather than its port's: a port whose receive queues several shards read.
     */
    public void meteredBy(final java.util.function.IntUnaryOperator shardOfBuffer) {
        this.shardOfBuffer = shardOfBuffer;
    }

    /** Shard {@code shard}'s copy of the bridge: read or changed only on that shard's thread. */
    public LearningBridge bridge(final int shard) {
        return bridges[shard];
    }

    public int shards() {
        return bridges.length;
    }

    /** Shard {@code shard}'s news goes to {@code listener}; set before the shards run. */
    public void listener(final int shard, final Listener listener) {
        listeners[shard] = listener;
    }

    /** On shard {@code shard}'s thread: its floods reach port {@code port} too, which the switch took while it runs. */
    public void floodAlsoTo(final int shard, final int port) {
        final int[] list = floodLists[shard];
        for (final int each : list) {
            if (each == port) {
                return;
            }
        }
        final int[] longer = Arrays.copyOf(list, list.length + 1);
        longer[list.length] = port;
        floodLists[shard] = longer;
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        final int ingress = pool.ingressPort(handle);
        final int shard = shardOfBuffer == null ? shardOfPort[ingress] : shardOfBuffer.applyAsInt(handle);
        // The packet's own time, the switch's clock: never a clock read here.
        final long nowNanos = pool.arrivalPicos(handle) / 1000;
        final UnsafeBuffer frame = pool.buffer(handle);
        final int at = pool.offset(handle);
        final LearningBridge bridge = bridges[shard];
        final long source = EthernetHeader.source(frame, at);
        final boolean changed = bridge.learn(source, ingress, nowNanos);
        final Listener listener = listeners[shard];
        if (listener != null) {
            listener.learned(source, ingress, nowNanos, changed);
        }
        final int egress = bridge.lookup(EthernetHeader.destination(frame, at), nowNanos);
        return egress == ingress ? FILTERED : egress;
    }

    @Override
    public int[] floodPorts(final int ingressPort) {
        return floodLists[shardOfPort[ingressPort]];
    }

    @Override
    public boolean floods() {
        return true;
    }
}
