package io.trimswitch.network;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.ForwardingStage;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A fat-tree switch's table: the packet's path, numbered as {@link FatTree} numbers the paths between its two hosts,
 * decides its port at every tier. Spraying, the sender chose the path (the NDP header's path field); ECMP, every switch
 * hashes the packet's addresses, protocol and ports to the same path, so a flow keeps one path end to end, stepping to
 * the next path where a cut link makes the hashed one unusable.
 */
final class FatTreeForwarding implements ForwardingStage {
    private static final int IPV4 = EthernetHeader.LENGTH;

    private final FatTree tree;
    private final int sw;
    private final boolean spray;

    FatTreeForwarding(final FatTree tree, final int sw, final boolean spray) {
        this.tree = tree;
        this.sw = sw;
        this.spray = spray;
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        if ((packetClass & PacketClass.IPV4) == 0) {
            return NO_ROUTE;
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int destination = Ipv4Header.destination(buffer, frame + IPV4);
        final int source = Ipv4Header.source(buffer, frame + IPV4);
        final int to = (destination >>> 8) & 0xFFFF;
        final int from = (source >>> 8) & 0xFFFF;
        final int hosts = tree.shape().nodes();
        if ((destination >>> 24) != 10 || (source >>> 24) != 10 || to >= hosts || from >= hosts) {
            return NO_ROUTE;
        }
        final int paths = tree.paths(from, to);
        if (paths == 1) {
            return tree.egressPort(sw, from, to, 0);
        }
        final int transport = frame + IPV4 + (buffer.getByte(frame + IPV4) & 0x0F) * 4;
        int path;
        if (spray) {
            path = NdpHeader.path(buffer, transport + UdpHeader.LENGTH);
            if (path >= paths) {
                return NO_ROUTE;
            }
        } else {
            path = Integer.remainderUnsigned(flowHash(buffer, frame, transport), paths);
            for (int tried = 0; tried < paths && !tree.usable(from, to, path); tried++) {
                path = path + 1 == paths ? 0 : path + 1;
            }
        }
        return tree.egressPort(sw, from, to, path);
    }

    /** ECMP's hash of addresses, protocol and ports: the same at every switch, so that the switches agree on the path. */
    private static int flowHash(final UnsafeBuffer buffer, final int frame, final int transport) {
        long key = Ipv4Header.source(buffer, frame + IPV4) & 0xFFFF_FFFFL;
        key = key * 0x9E37_79B9_7F4A_7C15L + (Ipv4Header.destination(buffer, frame + IPV4) & 0xFFFF_FFFFL);
        key = key * 0x9E37_79B9_7F4A_7C15L + (buffer.getInt(transport, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
        key = key * 0x9E37_79B9_7F4A_7C15L + (buffer.getByte(frame + IPV4 + 9) & 0xFF);
        key ^= key >>> 33;
        key *= 0xFF51_AFD7_ED55_8CCDL;
        key ^= key >>> 33;
        return (int) key;
    }
}
