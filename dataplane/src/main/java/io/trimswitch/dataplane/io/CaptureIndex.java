package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Every packet of a capture file — classic pcap (micro- or nanosecond timestamps, either byte order)
 * or pcapng (SHB, IDB, EPB, SPB and the obsolete PB, several sections) — found and checked in one pass
 * over the bytes: its timestamp, interface, and where its frame lies. Reading never goes past the
 * buffer and never loops without progress; anything malformed is a {@link CaptureFormatException}
 * naming the byte offset.
 *
 * <p>Interface IDs are those of the packet's pcapng section (classic pcap has only interface 0).
 * Only Ethernet captures are accepted: the switch's ports carry Ethernet frames.
 */
public final class CaptureIndex {
    public static final int LINKTYPE_ETHERNET = 1;
    private static final int PCAP_MAGIC_MICROS = 0xa1b2c3d4;
    private static final int PCAP_MAGIC_NANOS = 0xa1b23c4d;
    private static final int PCAPNG_SHB = 0x0A0D0D0A;
    private static final int PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int PCAPNG_IDB = 1;
    private static final int PCAPNG_OBSOLETE_PB = 2;
    private static final int PCAPNG_SPB = 3;
    private static final int PCAPNG_EPB = 6;
    private static final int OPTION_END = 0;
    private static final int IF_TSRESOL = 9;

    private final String source;
    private int count;
    private long[] timestampNanos = new long[1024];
    private int[] interfaceId = new int[1024];
    private long[] dataOffset = new long[1024];
    private int[] capturedLength = new int[1024];
    private int interfaces;

    private CaptureIndex(final String source) {
        this.source = source;
    }

    /** Indexes the capture held in {@code buffer[0, length)}; {@code source} names it in errors. */
    public static CaptureIndex of(final DirectBuffer buffer, final long length, final String source) {
        final CaptureIndex index = new CaptureIndex(source);
        if (length < 4) {
            throw new CaptureFormatException(source, 0, "too short to be a capture (" + length + " bytes)");
        }
        final int magicLe = buffer.getInt(0, ByteOrder.LITTLE_ENDIAN);
        final int magicBe = buffer.getInt(0, ByteOrder.BIG_ENDIAN);
        if (magicBe == PCAPNG_SHB) {
            index.readPcapng(buffer, length);
        } else if (magicLe == PCAP_MAGIC_MICROS || magicLe == PCAP_MAGIC_NANOS) {
            index.readPcap(buffer, length, ByteOrder.LITTLE_ENDIAN, magicLe == PCAP_MAGIC_NANOS);
        } else if (magicBe == PCAP_MAGIC_MICROS || magicBe == PCAP_MAGIC_NANOS) {
            index.readPcap(buffer, length, ByteOrder.BIG_ENDIAN, magicBe == PCAP_MAGIC_NANOS);
        } else {
            throw new CaptureFormatException(source, 0, String.format("bad magic 0x%08x: not a pcap or pcapng file", magicBe));
        }
        return index;
    }

    private void readPcap(final DirectBuffer buffer, final long length, final ByteOrder order, final boolean nanos) {
        require(buffer, length, 0, 24, "the 24-byte pcap file header");
        final int linkType = buffer.getInt(20, order) & 0x0FFF_FFFF;
        if (linkType != LINKTYPE_ETHERNET) {
            throw new CaptureFormatException(source, 20, "link type " + linkType + " is not Ethernet (1): the switch carries Ethernet frames");
        }
        interfaces = 1;
        long offset = 24;
        while (offset < length) {
            require(buffer, length, offset, 16, "a 16-byte packet record header");
            final int at = (int) offset;
            final long seconds = buffer.getInt(at, order) & 0xFFFF_FFFFL;
            final long fraction = buffer.getInt(at + 4, order) & 0xFFFF_FFFFL;
            final long captured = buffer.getInt(at + 8, order) & 0xFFFF_FFFFL;
            final long original = buffer.getInt(at + 12, order) & 0xFFFF_FFFFL;
            if (fraction >= (nanos ? 1_000_000_000L : 1_000_000L)) {
                throw new CaptureFormatException(source, offset + 4, "timestamp fraction " + fraction + " is not below one second");
            }
            checkLengths(offset + 8, captured, original);
            require(buffer, length, offset + 16, captured, "the " + captured + "-byte packet the record announces");
            add(seconds * 1_000_000_000L + (nanos ? fraction : fraction * 1000), 0, offset + 16, (int) captured);
            offset += 16 + captured;
        }
    }

    /** What a pcapng file's blocks say about the ones after them: byte order, interfaces, the last timestamp. */
    private static final class Section {
        private ByteOrder order;
        /** Per interface, picoseconds per timestamp tick; grown by doubling, as a capture may describe very many. */
        private long[] resolution = new long[8];
        private int described;
        private long lastTimestamp;
    }

    private void readPcapng(final DirectBuffer buffer, final long length) {
        final Section section = new Section();
        long offset = 0;
        while (offset < length) {
            require(buffer, length, offset, 12, "a block header and trailer");
            final int type = section.order == null ? buffer.getInt((int) offset, ByteOrder.BIG_ENDIAN) : buffer.getInt((int) offset, section.order);
            if (type == PCAPNG_SHB) {
                startSection(buffer, length, offset, section);
            } else if (section.order == null) {
                throw new CaptureFormatException(source, offset, "pcapng data before any section header block");
            }
            final long blockLength = blockLength(buffer, length, offset, section.order);
            final long body = offset + 8;
            final long bodyEnd = offset + blockLength - 4;
            switch (type) {
                case PCAPNG_IDB -> describeInterface(buffer, body, bodyEnd, section);
                case PCAPNG_EPB, PCAPNG_OBSOLETE_PB -> packetBlock(buffer, type, body, bodyEnd, section);
                case PCAPNG_SPB -> simplePacketBlock(buffer, body, bodyEnd, section);
                default -> {
                    // Name resolution, statistics, custom blocks: nothing the switch needs.
                }
            }
            offset += blockLength;
        }
    }

    /** A section header block: its byte-order magic sets the order of every block in the section. */
    private void startSection(final DirectBuffer buffer, final long length, final long offset, final Section section) {
        require(buffer, length, offset, 16, "a section header block");
        final int magicLe = buffer.getInt((int) offset + 8, ByteOrder.LITTLE_ENDIAN);
        if (magicLe == PCAPNG_BYTE_ORDER_MAGIC) {
            section.order = ByteOrder.LITTLE_ENDIAN;
        } else if (buffer.getInt((int) offset + 8, ByteOrder.BIG_ENDIAN) == PCAPNG_BYTE_ORDER_MAGIC) {
            section.order = ByteOrder.BIG_ENDIAN;
        } else {
            throw new CaptureFormatException(source, offset + 8, String.format("bad byte-order magic 0x%08x in section header", magicLe));
        }
        section.described = 0;
    }

    /** The block's length, which its header and its trailer must both state, in the file. */
    private long blockLength(final DirectBuffer buffer, final long length, final long offset, final ByteOrder order) {
        final long blockLength = buffer.getInt((int) offset + 4, order) & 0xFFFF_FFFFL;
        if (blockLength < 12 || blockLength % 4 != 0) {
            throw new CaptureFormatException(source, offset + 4, "block length " + blockLength + " is not a multiple of 4 of at least 12");
        }
        require(buffer, length, offset, blockLength, "the " + blockLength + "-byte block its header announces");
        final long trailer = buffer.getInt((int) (offset + blockLength - 4), order) & 0xFFFF_FFFFL;
        if (trailer != blockLength) {
            throw new CaptureFormatException(source, offset + blockLength - 4,
                "block length lies: header says " + blockLength + ", trailer says " + trailer);
        }
        return blockLength;
    }

    /** An interface description block: an Ethernet interface and its timestamp resolution. */
    private void describeInterface(final DirectBuffer buffer, final long body, final long bodyEnd, final Section section) {
        need(bodyEnd - body, 8, body, "interface description block");
        final int linkType = buffer.getShort((int) body, section.order) & 0xFFFF;
        if (linkType != LINKTYPE_ETHERNET) {
            throw new CaptureFormatException(source, body, "interface " + section.described + " has link type " + linkType
                + ", not Ethernet (1): the switch carries Ethernet frames");
        }
        if (section.described == section.resolution.length) {
            section.resolution = Arrays.copyOf(section.resolution, section.resolution.length * 2);
        }
        section.resolution[section.described++] = timestampResolution(buffer, section.order, body + 8, bodyEnd);
        interfaces = Math.max(interfaces, section.described);
    }

    /** An enhanced (or obsolete) packet block: a frame on a described interface, with its timestamp. */
    private void packetBlock(final DirectBuffer buffer, final int type, final long body, final long bodyEnd, final Section section) {
        need(bodyEnd - body, 20, body, "packet block");
        final ByteOrder order = section.order;
        final int b = (int) body;
        final int iface = type == PCAPNG_EPB ? buffer.getInt(b, order) : buffer.getShort(b, order) & 0xFFFF;
        if (iface < 0 || iface >= section.described) {
            throw new CaptureFormatException(source, body, "packet on interface " + (iface & 0xFFFF_FFFFL)
                + ", but the section describes " + section.described + " interface(s)");
        }
        final long ticks = ((buffer.getInt(b + 4, order) & 0xFFFF_FFFFL) << 32) | (buffer.getInt(b + 8, order) & 0xFFFF_FFFFL);
        final long captured = buffer.getInt(b + 12, order) & 0xFFFF_FFFFL;
        final long original = buffer.getInt(b + 16, order) & 0xFFFF_FFFFL;
        checkLengths(body + 12, captured, original);
        need(bodyEnd - body - 20, captured, body + 20, "packet data of " + captured + " bytes");
        section.lastTimestamp = toNanos(ticks, section.resolution[iface], body + 4);
        add(section.lastTimestamp, iface, body + 20, (int) captured);
    }

    /** A simple packet block: a frame on the first interface, without a timestamp of its own. */
    private void simplePacketBlock(final DirectBuffer buffer, final long body, final long bodyEnd, final Section section) {
        need(bodyEnd - body, 4, body, "simple packet block");
        if (section.described == 0) {
            throw new CaptureFormatException(source, body, "simple packet block, but the section describes no interface");
        }
        final long original = buffer.getInt((int) body, section.order) & 0xFFFF_FFFFL;
        final long captured = Math.min(original, bodyEnd - body - 4);
        checkLengths(body, captured, original);
        // It takes the previous packet's timestamp.
        add(section.lastTimestamp, 0, body + 4, (int) captured);
    }

    /** Picoseconds per timestamp tick of an interface, from its if_tsresol option (default microseconds). */
    private long timestampResolution(final DirectBuffer buffer, final ByteOrder order, final long options, final long end) {
        long offset = options;
        long picosPerTick = 1_000_000L;
        while (offset + 4 <= end) {
            final int code = buffer.getShort((int) offset, order) & 0xFFFF;
            final int optionLength = buffer.getShort((int) offset + 2, order) & 0xFFFF;
            if (code == OPTION_END) {
                break;
            }
            need(end - offset - 4, optionLength, offset + 4, "option " + code + " of " + optionLength + " bytes");
            if (code == IF_TSRESOL && optionLength >= 1) {
                final int value = buffer.getByte((int) offset + 4) & 0xFF;
                final int exponent = value & 0x7F;
                final boolean powerOfTwo = (value & 0x80) != 0;
                if (powerOfTwo ? exponent > 40 : exponent > 12) {
                    throw new CaptureFormatException(source, offset + 4, "if_tsresol " + value + " is finer than a picosecond");
                }
                picosPerTick = powerOfTwo ? Math.round(1e12 / Math.pow(2, exponent)) : pow10(12 - exponent);
                if (picosPerTick == 0) {
                    throw new CaptureFormatException(source, offset + 4, "if_tsresol " + value + " is finer than a picosecond");
                }
            }
            offset += 4 + ((optionLength + 3) & ~3);
        }
        return picosPerTick;
    }

    /** Ticks since the epoch (unsigned, as pcapng stores them) to nanoseconds, without overflowing on the way. */
    private long toNanos(final long ticks, final long picosPerTick, final long at) {
        final long ticksPerSecond = 1_000_000_000_000L / picosPerTick;
        final long seconds = Long.divideUnsigned(ticks, ticksPerSecond);
        final long remainder = Long.remainderUnsigned(ticks, ticksPerSecond);
        try {
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), remainder * picosPerTick / 1000);
        } catch (final ArithmeticException e) {
            throw new CaptureFormatException(source, at, "timestamp " + Long.toUnsignedString(ticks) + " is out of range");
        }
    }

    private void checkLengths(final long at, final long captured, final long original) {
        if (captured < original) {
            throw new CaptureFormatException(source, at, "packet truncated by the capture's snaplen: " + captured + " of "
                + original + " bytes captured, so it cannot be replayed as sent");
        }
        if (captured > original) {
            throw new CaptureFormatException(source, at, "captured length " + captured + " exceeds the original length " + original);
        }
        if (captured > Integer.MAX_VALUE) {
            throw new CaptureFormatException(source, at, "packet of " + captured + " bytes");
        }
    }

    private void require(final DirectBuffer buffer, final long length, final long offset, final long bytes, final String what) {
        if (bytes > length - offset) {
            throw new CaptureFormatException(source, offset, "truncated: " + what + " needs " + bytes + " bytes, the file has "
                + (length - offset) + " left");
        }
    }

    private void need(final long available, final long bytes, final long offset, final String what) {
        if (bytes > available) {
            throw new CaptureFormatException(source, offset, "block too short for its " + what + " (" + available + " bytes left)");
        }
    }

    private static long pow10(final int exponent) {
        long value = 1;
        for (int i = 0; i < exponent; i++) {
            value *= 10;
        }
        return value;
    }

    private void add(final long nanos, final int iface, final long offset, final int captured) {
        if (count == timestampNanos.length) {
            final int size = count * 2;
            timestampNanos = Arrays.copyOf(timestampNanos, size);
            interfaceId = Arrays.copyOf(interfaceId, size);
            dataOffset = Arrays.copyOf(dataOffset, size);
            capturedLength = Arrays.copyOf(capturedLength, size);
        }
        timestampNanos[count] = nanos;
        interfaceId[count] = iface;
        dataOffset[count] = offset;
        capturedLength[count] = captured;
        count++;
    }

    public String source() {
        return source;
    }

    public int packets() {
        return count;
    }

    /** Interfaces described (the most in any section; 1 for classic pcap). */
    public int interfaces() {
        return interfaces;
    }

    /** Capture time of packet {@code i}, nanoseconds since the epoch. */
    public long timestampNanos(final int i) {
        return timestampNanos[i];
    }

    public int interfaceId(final int i) {
        return interfaceId[i];
    }

    /** Where packet {@code i}'s frame starts in the file. */
    public long dataOffset(final int i) {
        return dataOffset[i];
    }

    public int length(final int i) {
        return capturedLength[i];
    }
}
