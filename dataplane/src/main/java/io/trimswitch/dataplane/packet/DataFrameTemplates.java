package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The data frames of fixed flows, as {@link WorkloadFrames#writeData} writes them, but built once per
 * flow: a flow's frames differ only in their sequence number (the IPv4 identification and the NDP
 * sequence) and so in the IPv4 checksum. Writing one is seven word stores and three patches.
 */
public final class DataFrameTemplates {
    /** The headers, rounded up to whole words: the last word also writes the first payload bytes. */
    private static final int WORDS = (TrimSettings.NDP_HEADERS + Long.BYTES - 1) / Long.BYTES;
    private static final int IP = EthernetHeader.LENGTH;
    private static final int IDENTIFICATION = IP + Ipv4Header.IDENTIFICATION_FIELD_OFFSET;
    private static final int CHECKSUM = IP + Ipv4Header.CHECKSUM_FIELD_OFFSET;
    private static final int SEQUENCE = IP + Ipv4Header.MIN_LENGTH + UdpHeader.LENGTH + NdpHeader.SEQUENCE_FIELD_OFFSET;

    private final long[] words;
    /** Per flow: the one's-complement sum of its IPv4 header with identification and checksum zero. */
    private final int[] headerSums;

    /**
     * @param senders   per flow, the port it enters on
     * @param receivers per flow, the port it is addressed to
     */
    public DataFrameTemplates(
        final int[] senders, final int[] receivers, final int frameLength, final int dscp, final int ndpUdpPort) {
        if (senders.length != receivers.length) {
            throw new IllegalArgumentException("one receiver per sender: " + senders.length + " senders, " + receivers.length + " receivers");
        }
        this.words = new long[senders.length * WORDS];
        this.headerSums = new int[senders.length];
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[WORDS * Long.BYTES + Math.max(frameLength, TrimSettings.NDP_HEADERS)]);
        for (int flow = 0; flow < senders.length; flow++) {
            scratch.setMemory(0, scratch.capacity(), (byte) 0);
            WorkloadFrames.writeData(scratch, 0, frameLength, senders[flow], receivers[flow], flow, 0, dscp, ndpUdpPort);
            for (int word = 0; word < WORDS; word++) {
                words[flow * WORDS + word] = scratch.getLong(word * Long.BYTES);
            }
            // With identification 0, the checksum is the complement of the sum of everything else.
            headerSums[flow] = ~scratch.getShort(CHECKSUM, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
    }

    /** Writes frame {@code sequence} of {@code flow}; the same bytes as {@link WorkloadFrames#writeData}. */
    public void write(final MutableDirectBuffer buffer, final int frame, final int flow, final int sequence) {
        final int first = flow * WORDS;
        for (int word = 0; word < WORDS; word++) {
            buffer.putLong(frame + word * Long.BYTES, words[first + word]);
        }
        final int identification = sequence & 0xFFFF;
        int sum = headerSums[flow] + identification;
        sum = (sum & 0xFFFF) + (sum >>> 16);
        buffer.putShort(frame + IDENTIFICATION, (short) identification, ByteOrder.BIG_ENDIAN);
        buffer.putShort(frame + CHECKSUM, (short) ~sum, ByteOrder.BIG_ENDIAN);
        buffer.putShort(frame + SEQUENCE, (short) sequence, ByteOrder.BIG_ENDIAN);
    }
}
