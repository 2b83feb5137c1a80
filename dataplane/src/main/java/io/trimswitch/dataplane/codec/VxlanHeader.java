package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The VXLAN header (RFC 7348) in front of the Ethernet frame in a UDP datagram: flags (the I bit says the
 * VNI is valid), 24 reserved bits, the 24-bit VXLAN network identifier, 8 reserved bits.
 */
public final class VxlanHeader {
    public static final int LENGTH = 8;
    /** The I flag: the VNI is valid. RFC 7348 requires it set. */
    public static final int FLAG_VNI_VALID = 0x08;
    public static final int MAX_VNI = (1 << 24) - 1;

    private VxlanHeader() {
    }

    public static int flags(final UnsafeBuffer buffer, final int offset) {
        return buffer.getByte(offset) & 0xFF;
    }

    public static int vni(final UnsafeBuffer buffer, final int offset) {
        return buffer.getInt(offset + 4, ByteOrder.BIG_ENDIAN) >>> 8;
    }

    public static void write(final UnsafeBuffer buffer, final int offset, final int vni) {
        buffer.putInt(offset, FLAG_VNI_VALID << 24, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + 4, vni << 8, ByteOrder.BIG_ENDIAN);
    }
}
