package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The frames {@link WorkloadFrames#write} builds, built once per kind of frame and then copied: the
 * frames one flow sends in one direction differ only in the NDP header (flags, sequence, pull target), the
 * IPv4 identification (the sequence) and so the IPv4 checksum. Writing one is seven word stores and three
 * patches instead of a store per field.
 */
public final class FrameTemplates {
    /** The headers, rounded up to whole words: the last word also writes the first payload bytes. */
    private static final int WORDS = (TrimSettings.NDP_HEADERS + Long.BYTES - 1) / Long.BYTES;
    private static final int IP = EthernetHeader.LENGTH;
    private static final int IDENTIFICATION = IP + Ipv4Header.IDENTIFICATION_FIELD_OFFSET;
    private static final int CHECKSUM = IP + Ipv4Header.CHECKSUM_FIELD_OFFSET;
    private static final int NDP = IP + Ipv4Header.MIN_LENGTH + UdpHeader.LENGTH;

    private final long[] words;
    /** Per template: the one's-complement sum of its IPv4 header with identification and checksum zero. */
    private final int[] headerSums;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[WORDS * Long.BYTES]);

    public FrameTemplates(final int templates) {
        this.words = new long[templates * WORDS];
        this.headerSums = new int[templates];
    }

    /** Template {@code id}: the frames of {@code flow} between two hosts, as {@link WorkloadFrames#write} writes them. */
    public void define(
        final int id, final int frameLength, final int sourcePort, final int sourceHost, final int destinationPort,
        final int destinationHost, final int flow, final int dscp, final int ndpUdpPort) {
        scratch.setMemory(0, scratch.capacity(), (byte) 0);
        WorkloadFrames.write(scratch, 0, frameLength, sourcePort, sourceHost, destinationPort, destinationHost, flow, 0, 0, 0,
            dscp, ndpUdpPort);
        for (int word = 0; word < WORDS; word++) {
            words[id * WORDS + word] = scratch.getLong(word * Long.BYTES);
        }
        // With identification 0, the checksum is the complement of the sum of everything else.
        headerSums[id] = ~scratch.getShort(CHECKSUM, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** Writes a frame of template {@code id}: the same bytes as {@link WorkloadFrames#write} with these fields. */
    public void write(
        final UnsafeBuffer buffer, final int frame, final int id, final int flags, final int sequence, final int pullTarget) {
        write(buffer, frame, id, flags, sequence, pullTarget, 0);
    }

    /** As {@link #write(UnsafeBuffer, int, int, int, int, int)}, with the path a spraying host chose in the NDP header. */
    public void write(
        final UnsafeBuffer buffer, final int frame, final int id, final int flags, final int sequence, final int pullTarget,
        final int path) {
        final int first = id * WORDS;
        for (int word = 0; word < WORDS; word++) {
            buffer.putLong(frame + word * Long.BYTES, words[first + word]);
        }
        final int identification = sequence & 0xFFFF;
        int sum = headerSums[id] + identification;
        sum = (sum & 0xFFFF) + (sum >>> 16);
        buffer.putShort(frame + IDENTIFICATION, (short) identification, ByteOrder.BIG_ENDIAN);
        buffer.putShort(frame + CHECKSUM, (short) ~sum, ByteOrder.BIG_ENDIAN);
        // The NDP header whole: flags, next protocol 0, sequence, pull target, path (reserved).
        buffer.putLong(frame + NDP, (long) (flags & 0xFF) << 56 | (long) identification << 32 | (long) (pullTarget & 0xFFFF) << 16
            | (path & 0xFFFF), ByteOrder.BIG_ENDIAN);
    }
}
