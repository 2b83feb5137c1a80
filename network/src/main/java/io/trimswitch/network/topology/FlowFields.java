package io.trimswitch.network.topology;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * What the networks' tables read of a packet: its hosts by their addresses (host h is 10.x.y.z, h = 256 x + y), where
 * its transport header starts, and the hash of its flow that ECMP spreads flows by.
 */
final class FlowFields {
    static final int IPV4 = EthernetHeader.LENGTH;
    /** Not a host of the network: not IPv4, or an address outside its hosts'. */
    static final int NO_HOST = -1;

    private FlowFields() {
    }

    /** The host the packet goes to, or {@link #NO_HOST}. */
    static int destinationHost(final PacketPool pool, final int handle, final int packetClass, final int hosts) {
        if ((packetClass & PacketClass.IPV4) == 0) {
            return NO_HOST;
        }
        return host(Ipv4Header.destination(pool.buffer(handle), pool.offset(handle) + IPV4), hosts);
    }

    /** The host an IPv4 packet comes from, or {@link #NO_HOST}. */
    static int sourceHost(final PacketPool pool, final int handle, final int hosts) {
        return host(Ipv4Header.source(pool.buffer(handle), pool.offset(handle) + IPV4), hosts);
    }

    private static int host(final int address, final int hosts) {
        final int host = (address >>> 8) & 0xFFFF;
        return (address >>> 24) != 10 || host >= hosts ? NO_HOST : host;
    }

    /** Where the transport header of the IPv4 packet in {@code buffer} at {@code frame} starts. */
    static int transport(final UnsafeBuffer buffer, final int frame) {
        return frame + IPV4 + (buffer.getByte(frame + IPV4) & 0x0F) * 4;
    }

    /**
     * ECMP's hash of addresses, protocol and ports, with {@code salt} added (a switch's own, to keep tiers from hashing
     * alike; 0 where every switch must hash a flow to the same path).
     */
    static int flowHash(final UnsafeBuffer buffer, final int frame, final int transport, final long salt) {
        long key = Ipv4Header.source(buffer, frame + IPV4) & 0xFFFF_FFFFL;
        key = key * 0x9E37_79B9_7F4A_7C15L + (Ipv4Header.destination(buffer, frame + IPV4) & 0xFFFF_FFFFL);
        key = key * 0x9E37_79B9_7F4A_7C15L + (buffer.getInt(transport, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
        key = key * 0x9E37_79B9_7F4A_7C15L + (buffer.getByte(frame + IPV4 + 9) & 0xFF) + salt;
        key ^= key >>> 33;
        key *= 0xFF51_AFD7_ED55_8CCDL;
        key ^= key >>> 33;
        return (int) key;
    }
}
