package io.trimswitch.dataplane.codec;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/** The Internet checksum's arithmetic (RFC 1071) over 16-bit words: what the transport checksums share. */
final class OnesComplement {
    private OnesComplement() {
    }

    /** The sum of the big-endian 16-bit words of {@code bytes} bytes at {@code from}, an odd last byte padded with zero. */
    static long sum(final UnsafeBuffer buffer, final int from, final int bytes) {
        long sum = 0;
        int at = from;
        final int end = from + bytes;
        for (; at + 1 < end; at += 2) {
            sum += buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        if (at < end) {
            sum += (buffer.getByte(at) & 0xFF) << 8;
        }
        return sum;
    }

    /** {@code sum} folded to 16 bits, its carries added back in. */
    static int fold(final long sum) {
        long folded = sum;
        while ((folded >>> 16) != 0) {
            folded = (folded & 0xFFFF) + (folded >>> 16);
        }
        return (int) folded;
    }
}
