package io.trimswitch.network.topology;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.ForwardingStage;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A leaf-spine switch's table. Host h has address 10.x.y.1 (h = 256 x + y) and hangs off port h mod hostsPerLeaf of
 * leaf h / hostsPerLeaf. A leaf sends a packet for its own rack to the host's port, and any other up to a spine: the
 * one its sender chose (spraying: the path in the NDP header) or the one the flow hashes to (ECMP), among the spines
 * that reach the destination's leaf. A spine sends down to the destination's leaf. Leaf ports are the hosts' first,
 * then one uplink per spine; spine port l goes to leaf l.
 */
final class LeafSpineForwarding implements ForwardingStage {
    private final LeafSpine network;
    /** This switch's leaf number, or -1 for a spine. */
    private final int leaf;
    /** This spine's number, or -1 for a leaf. */
    private final int spine;
    private final boolean spray;

    private LeafSpineForwarding(final LeafSpine network, final int leaf, final int spine) {
        this.network = network;
        this.leaf = leaf;
        this.spine = spine;
        this.spray = network.routing() == NetworkSettings.Routing.SPRAY;
    }

    static LeafSpineForwarding leaf(final LeafSpine network, final int leaf) {
        return new LeafSpineForwarding(network, leaf, -1);
    }

    static LeafSpineForwarding spine(final LeafSpine network, final int spine) {
        return new LeafSpineForwarding(network, -1, spine);
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        final int host = FlowFields.destinationHost(pool, handle, packetClass, network.hosts());
        if (host == FlowFields.NO_HOST) {
            return NO_ROUTE;
        }
        final int destinationLeaf = network.leafOf(host);
        if (spine >= 0) {
            return network.linkUp(destinationLeaf, spine) ? destinationLeaf : NO_ROUTE;
        }
        if (destinationLeaf == leaf) {
            return network.portOfHost(host);
        }
        final int[] spines = network.usableSpines(leaf, destinationLeaf);
        if (spines.length == 0) {
            return NO_ROUTE;
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int transport = FlowFields.transport(buffer, frame);
        if (spray) {
            final int chosen = NdpHeader.path(buffer, transport + UdpHeader.LENGTH);
            if (chosen < network.spines() && network.linkUp(leaf, chosen) && network.linkUp(destinationLeaf, chosen)) {
                return network.uplinkPort(chosen);
            }
            // The sender chose a path before it learnt that the path failed: the leaf hashes the packet onto one that works.
        }
        return network.uplinkPort(spines[Integer.remainderUnsigned(FlowFields.flowHash(buffer, frame, transport, (long) leaf << 32), spines.length)]);
    }
}
