package io.trimswitch.uet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The UET fields of the model's frames, after Ethernet, IPv4 and UDP: the switches' 8-byte trimming shim (flags, the
 * packet sequence number, a 16-bit field, the path the switches follow) and 14 bytes of UET state: the packet's
 * entropy, the receiver's count of packets held, and an ACK's selective acknowledgement (the first packet it covers
 * and a 64-bit map of the packets from there on that the receiver holds; a data packet's RCCC pull target, a PULL's pull number, in its
 * place). The shim's flags say DATA, ACK, NACK or PULL, and for UET also AR (ACK
 * requested), LAST_HOP (a NACK of a last-hop trim) and ECN_ECHO; the 16-bit field carries an ACK's or NACK's
 * cumulative acknowledgement. A trim keeps the first 64 bytes, so a header keeps all of them. ECN itself is the IPv4
 * header's: UET senders send ECT(0), and a queue marks CE.
 */
public final class UetHeader {
    public static final int FLAG_DATA = NdpHeader.FLAG_DATA;
    public static final int FLAG_ACK = NdpHeader.FLAG_ACK;
    public static final int FLAG_NACK = NdpHeader.FLAG_NACK;
    /** RCCC's PULL: credit from the receiver. */
    public static final int FLAG_PULL = NdpHeader.FLAG_PULL;
    public static final int FLAG_ACK_REQUEST = 1 << 4;
    public static final int FLAG_LAST_HOP = 1 << 5;
    public static final int FLAG_ECN_ECHO = 1 << 6;
    public static final int FLAG_CHOPPED = NdpHeader.FLAG_CHOPPED;
    /** Where the UET state starts, after the shim. */
    static final int ENTROPY_OFFSET = NdpHeader.LENGTH;
    static final int RECEIVED_OFFSET = NdpHeader.LENGTH + 2;
    static final int SACK_BASE_OFFSET = NdpHeader.LENGTH + 4;
    static final int SACK_BITS_OFFSET = NdpHeader.LENGTH + 6;
    /** The shim and the UET state: with Ethernet, IPv4 and UDP, the 64 bytes a trim keeps. */
    public static final int LENGTH = NdpHeader.LENGTH + 14;
    /** ECN's code points, the two low bits of the IPv4 TOS byte. */
    public static final int ECT0 = 0b10;
    public static final int CE = 0b11;
    /** What {@link #find} returns for a frame that does not carry these fields whole. */
    public static final int NOT_UET = -1;

    private UetHeader() {
    }

    /**
     * Where the shim starts in the frame of {@code length} bytes at {@code frame}, or {@link #NOT_UET}: not IPv4 and UDP,
     * too short to hold every field, or flags that are not exactly one of DATA, ACK, NACK and PULL.
     */
    public static int find(final UnsafeBuffer buffer, final int frame, final int length) {
        if (length < EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + UdpHeader.LENGTH + LENGTH
            || (buffer.getShort(frame + EthernetHeader.ETHER_TYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF) != 0x0800) {
            return NOT_UET;
        }
        final int ip = frame + EthernetHeader.LENGTH;
        if (Ipv4Header.version(buffer, ip) != 4 || Ipv4Header.protocol(buffer, ip) != Ipv4Header.PROTOCOL_UDP) {
            return NOT_UET;
        }
        final int ipLength = Ipv4Header.headerLength(buffer, ip);
        final int shim = ip + ipLength + UdpHeader.LENGTH;
        if (ipLength < Ipv4Header.MIN_LENGTH || shim + LENGTH > frame + length) {
            return NOT_UET;
        }
        final int kind = flags(buffer, shim) & (FLAG_DATA | FLAG_ACK | FLAG_NACK | NdpHeader.FLAG_PULL);
        return kind == FLAG_DATA || kind == FLAG_ACK || kind == FLAG_NACK || kind == FLAG_PULL ? shim : NOT_UET;
    }

    public static int flags(final UnsafeBuffer buffer, final int shim) {
        return NdpHeader.flags(buffer, shim);
    }

    public static int psn(final UnsafeBuffer buffer, final int shim) {
        return NdpHeader.sequence(buffer, shim);
    }

    public static int cumulative(final UnsafeBuffer buffer, final int shim) {
        return NdpHeader.pullTarget(buffer, shim);
    }

    public static int entropy(final UnsafeBuffer buffer, final int shim) {
        return buffer.getShort(shim + ENTROPY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static int received(final UnsafeBuffer buffer, final int shim) {
        return buffer.getShort(shim + RECEIVED_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** The first packet an ACK's selective acknowledgement covers. */
    public static int sackBase(final UnsafeBuffer buffer, final int shim) {
        return buffer.getShort(shim + SACK_BASE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** Bit i set: the receiver holds packet {@link #sackBase} + i. */
    public static long sackBits(final UnsafeBuffer buffer, final int shim) {
        return buffer.getLong(shim + SACK_BITS_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /** Writes the UET state after a shim already written. */
    public static void writeState(final UnsafeBuffer buffer, final int shim, final int entropy, final int received, final int sackBase,
        final long sackBits) {
        buffer.putShort(shim + ENTROPY_OFFSET, (short) entropy, ByteOrder.BIG_ENDIAN);
        buffer.putShort(shim + RECEIVED_OFFSET, (short) received, ByteOrder.BIG_ENDIAN);
        buffer.putShort(shim + SACK_BASE_OFFSET, (short) sackBase, ByteOrder.BIG_ENDIAN);
        buffer.putLong(shim + SACK_BITS_OFFSET, sackBits, ByteOrder.BIG_ENDIAN);
    }

    /** The ECN code point of the IPv4 frame at {@code frame}. */
    public static int ecn(final UnsafeBuffer buffer, final int frame) {
        return Ipv4Header.tos(buffer, frame + EthernetHeader.LENGTH) & 0b11;
    }

    /** Sets the frame's ECN code point (the IPv4 checksum follows). */
    public static void ecn(final UnsafeBuffer buffer, final int frame, final int codePoint) {
        final int ip = frame + EthernetHeader.LENGTH;
        Ipv4Header.rewriteTosAndLength(buffer, ip, (Ipv4Header.tos(buffer, ip) & ~0b11) | codePoint, Ipv4Header.totalLength(buffer, ip));
    }

    /** The DSCP of the IPv4 frame at {@code frame}: a trimmed packet's says where it was trimmed. */
    public static int dscp(final UnsafeBuffer buffer, final int frame) {
        return Ipv4Header.dscp(buffer, frame + EthernetHeader.LENGTH);
    }
}
