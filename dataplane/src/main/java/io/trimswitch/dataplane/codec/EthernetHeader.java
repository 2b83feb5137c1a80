package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/** Ethernet II header, read and written in place. MAC addresses are the low 48 bits of a long. */
public final class EthernetHeader {
    public static final int DESTINATION_FIELD_OFFSET = 0;
    public static final int SOURCE_FIELD_OFFSET = 6;
    public static final int ETHER_TYPE_FIELD_OFFSET = 12;
    public static final int LENGTH = 14;
    public static final int ETHER_TYPE_IPV4 = 0x0800;
    public static final int ETHER_TYPE_ARP = 0x0806;
    public static final int ETHER_TYPE_IPV6 = 0x86DD;
    public static final int ETHER_TYPE_VLAN = 0x8100;
    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    /** The first of IEEE 802.1D's sixteen reserved group addresses, 01:80:C2:00:00:00 to 0F (STP, PAUSE, LACP, LLDP ...). */
    public static final long RESERVED_GROUP_BASE = 0x0180_C200_0000L;

    private EthernetHeader() {
    }

    /** Whether {@code mac} is one of 802.1D's reserved group addresses, which a bridge consumes or discards and never forwards. */
    public static boolean isReservedGroup(final long mac) {
        return (mac & ~0xFL) == RESERVED_GROUP_BASE;
    }

    public static long destination(final UnsafeBuffer buffer, final int frame) {
        return mac(buffer, frame + DESTINATION_FIELD_OFFSET);
    }

    public static void destination(final UnsafeBuffer buffer, final int frame, final long mac) {
        mac(buffer, frame + DESTINATION_FIELD_OFFSET, mac);
    }

    public static long source(final UnsafeBuffer buffer, final int frame) {
        return mac(buffer, frame + SOURCE_FIELD_OFFSET);
    }

    public static void source(final UnsafeBuffer buffer, final int frame, final long mac) {
        mac(buffer, frame + SOURCE_FIELD_OFFSET, mac);
    }

    public static int etherType(final UnsafeBuffer buffer, final int frame) {
        return buffer.getShort(frame + ETHER_TYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static void etherType(final UnsafeBuffer buffer, final int frame, final int type) {
        buffer.putShort(frame + ETHER_TYPE_FIELD_OFFSET, (short) type, ByteOrder.BIG_ENDIAN);
    }

    /** The MAC of the host on switch port {@code port}: 02:00:00:00:00:pp (locally administered). */
    public static long hostMac(final int port) {
        return 0x0200_0000_0000L | (port & 0xFFFF_FFFFL);
    }

    private static long mac(final UnsafeBuffer buffer, final int index) {
        final long high = buffer.getShort(index, ByteOrder.BIG_ENDIAN) & 0xFFFFL;
        final long low = buffer.getInt(index + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
        return (high << 32) | low;
    }

    private static void mac(final UnsafeBuffer buffer, final int index, final long mac) {
        buffer.putShort(index, (short) (mac >>> 32), ByteOrder.BIG_ENDIAN);
        buffer.putInt(index + 2, (int) mac, ByteOrder.BIG_ENDIAN);
    }
}
