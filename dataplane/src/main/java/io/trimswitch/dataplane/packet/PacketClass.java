package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The ingress parser: one pass over a frame's headers that yields a class word — flags plus the
 * length of the headers a trim must keep — so later stages never parse again.
 */
public final class PacketClass {
    private static final int HEADERS_END_MASK = 0xFFF;
    /** The frame cannot be parsed; the low bits then say why (see {@link #dropReason}). */
    public static final int MALFORMED = 1 << 16;
    private static final int TRUNCATED = MALFORMED | 1;
    private static final int BAD_IPV4_HEADER = MALFORMED | 2;
    private static final int BAD_IPV4_CHECKSUM = MALFORMED | 3;
    private static final int BAD_IPV6_HEADER = MALFORMED | 4;
    /** A later fragment: no transport header in it. */
    private static final int NO_TRANSPORT = -1;
    /** IPv6 behind an extension header the switch does not step over: where the headers end is unknown. */
    private static final int UNKNOWN_TRANSPORT = -2;
    public static final int IPV4 = 1 << 17;
    /** IPv6; bit 23, which IPv4 packets leave clear. */
    public static final int IPV6 = 1 << 23;
    public static final int UDP = 1 << 18;
    public static final int NDP = 1 << 19;
    /** May be cut to its header when its data queue is congested. */
    public static final int TRIMMABLE = 1 << 20;
    /** Travels in the header queue: NDP control packets and packets already trimmed. */
    public static final int PRIORITY = 1 << 21;
    /** An NDP ACK, NACK or PULL. */
    public static final int CONTROL = 1 << 22;
    /** IPv6 behind an extension header the switch does not step over: never trimmable, and counted as such. */
    public static final int OPAQUE = 1 << 27;
    /**
     * Classed as a header (an NDP control packet, a trimmed packet) but longer than any header this switch makes: it
     * travels as data, lest any host jump the data queue by setting a flag.
     */
    public static final int OVERSIZE_CONTROL = 1 << 28;
    /** Bits 24..26: the data queue of the packet's traffic class. */
    private static final int QUEUE_SHIFT = 24;
    private static final int QUEUE_MASK = 0x7;

    private PacketClass() {
    }

    public static int classify(final UnsafeBuffer buffer, final int frame, final int length, final TrimSettings settings) {
        if (length < EthernetHeader.LENGTH) {
            return TRUNCATED;
        }
        final int etherType = EthernetHeader.etherType(buffer, frame);
        if (etherType == EthernetHeader.ETHER_TYPE_IPV4) {
            return ipv4(buffer, frame, length, settings);
        }
        if (etherType == EthernetHeader.ETHER_TYPE_IPV6) {
            return ipv6(buffer, frame, length, settings);
        }
        return EthernetHeader.LENGTH;
    }

    private static int ipv4(final UnsafeBuffer buffer, final int frame, final int length, final TrimSettings settings) {
        final int ip = frame + EthernetHeader.LENGTH;
        if (length < EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH) {
            return TRUNCATED;
        }
        // The fixed header in three loads: version/IHL, TOS, total length, id, flags/fragment; TTL,
        // protocol, checksum, source; destination.
        final long first = buffer.getLong(ip, java.nio.ByteOrder.BIG_ENDIAN);
        final long second = buffer.getLong(ip + 8, java.nio.ByteOrder.BIG_ENDIAN);
        final int versionIhl = (int) (first >>> 56) & 0xFF;
        final int ipHeader = (versionIhl & 0xF) << 2;
        final int totalLength = (int) (first >>> 32) & 0xFFFF;
        if ((versionIhl >>> 4) != 4 || ipHeader < Ipv4Header.MIN_LENGTH || totalLength < ipHeader) {
            return BAD_IPV4_HEADER;
        }
        if (EthernetHeader.LENGTH + totalLength > length) {
            return TRUNCATED;
        }
        if (!Ipv4Header.checksumValid(buffer, ip, ipHeader, first, second)) {
            return BAD_IPV4_CHECKSUM;
        }
        final int dscp = (int) (first >>> 50) & 0x3F;
        final boolean firstFragment = (first & 0x1FFF) == 0;
        final int protocol = firstFragment ? (int) (second >>> 48) & 0xFF : NO_TRANSPORT;
        return transport(buffer, frame, length, settings, IPV4, dscp, protocol, ip + ipHeader, totalLength - ipHeader);
    }

    /**
     * IPv6: the fixed header, then the common extension headers (hop-by-hop, routing, fragment, destination options)
     * stepped over to reach UDP. Behind any other extension header the transport is unknown: the packet is
     * forwarded but never trimmable, as its headers' end cannot be found.
     */
    private static int ipv6(final UnsafeBuffer buffer, final int frame, final int length, final TrimSettings settings) {
        final int ip = frame + EthernetHeader.LENGTH;
        if (length < EthernetHeader.LENGTH + Ipv6Header.LENGTH) {
            return TRUNCATED;
        }
        if (Ipv6Header.version(buffer, ip) != 6) {
            return BAD_IPV6_HEADER;
        }
        final int payloadEnd = ip + Ipv6Header.LENGTH + Ipv6Header.payloadLength(buffer, ip);
        if (payloadEnd > frame + length) {
            return TRUNCATED;
        }
        final int dscp = Ipv6Header.dscp(buffer, ip);
        int header = Ipv6Header.nextHeader(buffer, ip);
        int at = ip + Ipv6Header.LENGTH;
        while (Ipv6Header.skippable(header)) {
            if (at + 8 > payloadEnd) {
                return BAD_IPV6_HEADER;
            }
            final int extension = Ipv6Header.extensionLength(buffer, at, header);
            if (at + extension > payloadEnd) {
                return BAD_IPV6_HEADER;
            }
            if (header == Ipv6Header.FRAGMENT && Ipv6Header.laterFragment(buffer, at)) {
                // The headers a trim keeps end after the fragment header: cut before it, the chain no longer parses.
                header = NO_TRANSPORT;
                at += extension;
                break;
            }
            header = buffer.getByte(at) & 0xFF;
            at += extension;
        }
        if (Ipv6Header.unskippableExtension(header)) {
            return transport(buffer, frame, length, settings, IPV6, dscp, UNKNOWN_TRANSPORT, at, payloadEnd - at) | OPAQUE;
        }
        return transport(buffer, frame, length, settings, IPV6, dscp, header, at, payloadEnd - at);
    }

    /**
     * What IPv4 and IPv6 share: UDP and the NDP shim behind it, and whether the packet is trimmable, a header, or
     * neither. {@code l4} is where the transport header starts, {@code l4Length} how many bytes the IP header says it has.
     */
    private static int transport(
        final UnsafeBuffer buffer, final int frame, final int length, final TrimSettings settings, final int ipFlag, final int dscp,
        final int protocol, final int l4, final int l4Length) {
        int headersEnd = l4 - frame;
        int word = ipFlag | settings.queueOf(dscp) << QUEUE_SHIFT;
        if (protocol == Ipv4Header.PROTOCOL_UDP && l4Length >= UdpHeader.LENGTH) {
            word |= UDP;
            headersEnd += UdpHeader.LENGTH;
            if (UdpHeader.destinationPort(buffer, l4) == settings.ndpUdpPort() && l4Length >= UdpHeader.LENGTH + NdpHeader.LENGTH) {
                headersEnd += NdpHeader.LENGTH;
                final int flags = NdpHeader.flags(buffer, l4 + UdpHeader.LENGTH);
                word |= NDP;
                if ((flags & (NdpHeader.CONTROL_FLAGS | NdpHeader.FLAG_CHOPPED)) != 0) {
                    if (length <= longestHeader(settings, headersEnd)) {
                        return word | PRIORITY | ((flags & NdpHeader.CONTROL_FLAGS) != 0 ? CONTROL : 0) | headersEnd;
                    }
                    // Then it is data, trimmable as NDP data is.
                    word |= OVERSIZE_CONTROL;
                }
                final boolean trimmable = settings.trims(queue(word)) && settings.mayTrim(dscp) && length > settings.sizeBytes()
                    && !optedOut(buffer, frame, settings, ipFlag, protocol, l4, l4Length, dscp);
                return word | (trimmable ? TRIMMABLE : 0) | headersEnd;
            }
        }
        if (settings.isTrimmableDscp(dscp) && protocol != UNKNOWN_TRANSPORT) {
            // A packet no longer than the trim size has nothing to cut: it is queued or dropped like any other.
            final boolean trimmable = length > settings.sizeBytes() && !optedOut(buffer, frame, settings, ipFlag, protocol, l4, l4Length, dscp);
            return word | (trimmable ? TRIMMABLE : 0) | headersEnd;
        }
        if (settings.isTrimmedDscp(dscp)) {
            return word | (length <= longestHeader(settings, headersEnd) ? PRIORITY : OVERSIZE_CONTROL) | headersEnd;
        }
        return word | headersEnd;
    }

    /**
     * The longest header this switch makes of a packet whose headers end at {@code headersEnd}: what its trimmer keeps,
     * the trim size or, behind longer headers (IPv6 extension headers), the headers themselves.
     */
    private static int longestHeader(final TrimSettings settings, final int headersEnd) {
        return Math.max(settings.sizeBytes(), headersEnd);
    }

    private static boolean optedOut(
        final UnsafeBuffer buffer, final int frame, final TrimSettings settings, final int ipFlag, final int protocol, final int l4,
        final int l4Length, final int dscp) {
        // The destination port sits at the same place in UDP and TCP headers.
        return settings.hasOptOuts()
            && settings.optedOut(buffer, frame, ipFlag == IPV4, protocol, protocol >= 0 && l4Length >= 4 ? l4 : -1, dscp);
    }

    /** Where a UDP packet's UDP header starts, from where its headers end: before the NDP shim, if it has one. */
    public static int udpOffset(final int frame, final int packetClass) {
        return frame + headersEnd(packetClass) - UdpHeader.LENGTH - ((packetClass & NDP) != 0 ? NdpHeader.LENGTH : 0);
    }

    /** Bytes from the frame's start to the end of the last header a trim keeps. */
    public static int headersEnd(final int packetClass) {
        return packetClass & HEADERS_END_MASK;
    }

    public static boolean isMalformed(final int packetClass) {
        return (packetClass & MALFORMED) != 0;
    }

    /** Why a malformed frame is dropped: {@link DropReason#TRUNCATED}, {@link DropReason#BAD_IPV4_HEADER} or {@link DropReason#BAD_IPV4_CHECKSUM}. */
    public static DropReason dropReason(final int packetClass) {
        switch (packetClass) {
            case TRUNCATED:
                return DropReason.TRUNCATED;
            case BAD_IPV4_HEADER:
                return DropReason.BAD_IPV4_HEADER;
            case BAD_IPV4_CHECKSUM:
                return DropReason.BAD_IPV4_CHECKSUM;
            case BAD_IPV6_HEADER:
                return DropReason.BAD_IPV6_HEADER;
            default:
                throw new IllegalArgumentException("not a malformed frame's class: 0x" + Integer.toHexString(packetClass));
        }
    }

    /** The data queue the packet goes to when it is not a header (0 with one data queue). */
    public static int queue(final int packetClass) {
        return packetClass >>> QUEUE_SHIFT & QUEUE_MASK;
    }

    /** An IPv6 packet whose transport the switch cannot find: it is forwarded, never trimmed. */
    public static boolean isOpaque(final int packetClass) {
        return (packetClass & OPAQUE) != 0;
    }

    /** Classed as a header by its flags or DSCP, but too long to be one: it travelled as data. */
    public static boolean isOversizeControl(final int packetClass) {
        return (packetClass & OVERSIZE_CONTROL) != 0;
    }

    public static boolean isTrimmable(final int packetClass) {
        return (packetClass & TRIMMABLE) != 0;
    }

    public static boolean isControl(final int packetClass) {
        return (packetClass & CONTROL) != 0;
    }

    public static boolean isPriority(final int packetClass) {
        return (packetClass & PRIORITY) != 0;
    }
}
