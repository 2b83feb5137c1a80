package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The virtio_net_hdr that Linux puts before a frame on a packet socket with PACKET_VNET_HDR, in the host's byte order:
 * it says that the frame is one TCP/UDP segmentation-offload frame of up to 64 KB that the kernel cuts into segments of
 * {@code gsoSize} on the way out, and that its transport checksum is still to be completed from {@code checksumStart}.
 * Such a frame crosses the switch whole, with this header just before it.
 */
public final class OffloadHeader {
    public static final int LENGTH = 10;
    private static final int FLAGS_FIELD_OFFSET = 0;
    private static final int GSO_TYPE_FIELD_OFFSET = 1;
    private static final int HEADER_LENGTH_FIELD_OFFSET = 2;
    private static final int GSO_SIZE_FIELD_OFFSET = 4;
    private static final int CHECKSUM_START_FIELD_OFFSET = 6;
    private static final int CHECKSUM_OFFSET_FIELD_OFFSET = 8;
    /** VIRTIO_NET_HDR_F_NEEDS_CSUM: the checksum field holds only the pseudo-header's sum. */
    public static final int FLAG_NEEDS_CHECKSUM = 1;
    public static final int GSO_NONE = 0;

    private OffloadHeader() {
    }

    public static int flags(final UnsafeBuffer buffer, final int header) {
        return buffer.getByte(header + FLAGS_FIELD_OFFSET) & 0xFF;
    }

    public static int gsoType(final UnsafeBuffer buffer, final int header) {
        return buffer.getByte(header + GSO_TYPE_FIELD_OFFSET) & 0xFF;
    }

    public static int headerLength(final UnsafeBuffer buffer, final int header) {
        return buffer.getShort(header + HEADER_LENGTH_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    public static int gsoSize(final UnsafeBuffer buffer, final int header) {
        return buffer.getShort(header + GSO_SIZE_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    public static int checksumStart(final UnsafeBuffer buffer, final int header) {
        return buffer.getShort(header + CHECKSUM_START_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    public static int checksumOffset(final UnsafeBuffer buffer, final int header) {
        return buffer.getShort(header + CHECKSUM_OFFSET_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /** A plain frame: nothing to segment, nothing to complete. */
    public static void clear(final UnsafeBuffer buffer, final int header) {
        buffer.putLong(header, 0L);
        buffer.putShort(header + 8, (short) 0);
    }

    /**
     * A frame whose transport checksum, at {@code offset} past {@code start}, holds only the pseudo-header's sum and is
     * to be completed on the way out; nothing to segment.
     */
    public static void needsChecksum(final UnsafeBuffer buffer, final int header, final int start, final int offset) {
        clear(buffer, header);
        buffer.putByte(header + FLAGS_FIELD_OFFSET, (byte) FLAG_NEEDS_CHECKSUM);
        buffer.putShort(header + HEADER_LENGTH_FIELD_OFFSET, (short) (start + offset + 2), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(header + CHECKSUM_START_FIELD_OFFSET, (short) start, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(header + CHECKSUM_OFFSET_FIELD_OFFSET, (short) offset, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * How many packets the frame of {@code frameLength} bytes becomes on the wire: one, or as many segments as its
     * payload past the headers fills at {@code gsoSize} each.
     */
    public static int segments(final UnsafeBuffer buffer, final int header, final int frameLength) {
        final int gsoSize = gsoSize(buffer, header);
        final int headers = headerLength(buffer, header);
        if (gsoType(buffer, header) == GSO_NONE || gsoSize == 0 || frameLength <= headers) {
            return 1;
        }
        return (frameLength - headers + gsoSize - 1) / gsoSize;
    }

    /**
     * Completes the transport checksum that the sending host left to offload, for a frame that leaves by a path that
     * will not complete it (a tunnel). True when it was done or nothing was to do; false when the header points outside
     * the frame.
     */
    public static boolean completeChecksum(final UnsafeBuffer buffer, final int header, final int frame, final int frameLength) {
        if ((flags(buffer, header) & FLAG_NEEDS_CHECKSUM) == 0) {
            return true;
        }
        final int start = checksumStart(buffer, header);
        final int field = start + checksumOffset(buffer, header);
        if (start >= frameLength || field + 2 > frameLength) {
            return false;
        }
        // The field already holds the pseudo-header's sum: the sum over everything from start, field included, completes it.
        int checksum = ~OnesComplement.fold(OnesComplement.sum(buffer, frame + start, frameLength - start)) & 0xFFFF;
        if (checksum == 0 && field - start == UdpHeader.CHECKSUM_FIELD_OFFSET) {
            // For UDP a computed zero is sent as all ones: zero would mean "no checksum".
            checksum = 0xFFFF;
        }
        buffer.putShort(frame + field, (short) checksum, ByteOrder.BIG_ENDIAN);
        clear(buffer, header);
        return true;
    }
}
