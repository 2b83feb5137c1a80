package io.trimswitch.network.topology;

import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.ForwardingStage;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fat-tree switch's table: the packet's path, numbered as {@link FatTree} numbers the paths between its two hosts,
 * decides its port at every tier. Spraying, the sender chose the path (the NDP header's path field); ECMP, every switch
 * hashes the packet's addresses, protocol and ports to the same path, so a flow keeps one path end to end, stepping to
 * the next path where a cut link makes the hashed one unusable.
 */
public final class FatTreeForwarding implements ForwardingStage {
    private final FatTree tree;
    private final int sw;
    private final boolean spray;

    public FatTreeForwarding(final FatTree tree, final int sw, final boolean spray) {
        this.tree = tree;
        this.sw = sw;
        this.spray = spray;
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        final int hosts = tree.shape().nodes();
        final int to = FlowFields.destinationHost(pool, handle, packetClass, hosts);
        final int from = to == FlowFields.NO_HOST ? FlowFields.NO_HOST : FlowFields.sourceHost(pool, handle, hosts);
        if (from == FlowFields.NO_HOST) {
            return NO_ROUTE;
        }
        final int paths = tree.paths(from, to);
        if (paths == 1) {
            return tree.egressPort(sw, from, to, 0);
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int transport = FlowFields.transport(buffer, frame);
        int path;
        if (spray) {
            path = NdpHeader.path(buffer, transport + UdpHeader.LENGTH);
            if (path >= paths) {
                return NO_ROUTE;
            }
        } else {
            path = Integer.remainderUnsigned(FlowFields.flowHash(buffer, frame, transport, 0), paths);
            for (int tried = 0; tried < paths && !tree.usable(from, to, path); tried++) {
                path = path + 1 == paths ? 0 : path + 1;
            }
        }
        return tree.egressPort(sw, from, to, path);
    }
}
