package io.trimswitch.dataplane.io;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaptureIndexTest {
    @TempDir
    Path dir;

    private static UnsafeBuffer frame(final int length, final int fill) {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) fill);
        return new UnsafeBuffer(bytes);
    }

    private static CaptureIndex index(final byte[] bytes) {
        return CaptureIndex.of(new UnsafeBuffer(bytes), bytes.length, "test.pcap");
    }

    private static CaptureFormatException error(final byte[] bytes) {
        return assertThrows(CaptureFormatException.class, () -> index(bytes));
    }

    private byte[] pcapngOf(final int interfaces, final int... packetInterfaces) throws IOException {
        final Path file = dir.resolve("t.pcapng");
        final String[] names = new String[interfaces];
        final long[] speeds = new long[interfaces];
        Arrays.fill(names, "p");
        Arrays.fill(speeds, 100_000_000_000L);
        try (PcapngWriter writer = new PcapngWriter(file, names, speeds, 0)) {
            for (int i = 0; i < packetInterfaces.length; i++) {
                writer.write(packetInterfaces[i], 1_000_000L * (i + 1) + 7_000, frame(60 + i, i), 0, 60 + i);
            }
        }
        return Files.readAllBytes(file);
    }

    /** A classic pcap header and records, built by hand in either byte order and timestamp unit. */
    private static byte[] classic(final ByteOrder order, final boolean nanos, final int linkType, final int[] captured, final int[] original) {
        final ByteBuffer buffer = ByteBuffer.allocate(24 + Arrays.stream(captured).map(c -> 16 + c).sum()).order(order);
        buffer.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(linkType);
        for (int i = 0; i < captured.length; i++) {
            buffer.putInt(1_700_000_000 + i).putInt(nanos ? 999_999_999 : 999_999).putInt(captured[i]).putInt(original[i]);
            buffer.put(new byte[captured[i]]);
        }
        return buffer.array();
    }

    @Test
    void readsBackWhatThePcapWriterWrote() throws IOException {
        final Path file = dir.resolve("t.pcap");
        try (PcapWriter writer = new PcapWriter(file)) {
            writer.write(1_500_000, frame(64, 1), 0, 64);
            writer.write(3_000_000_123_000L, frame(1514, 2), 0, 1514);
        }
        final CaptureIndex index = index(Files.readAllBytes(file));
        assertEquals(2, index.packets());
        assertEquals(1_500, index.timestampNanos(0));
        assertEquals(3_000_000_123L, index.timestampNanos(1));
        assertEquals(1514, index.length(1));
        assertEquals(24 + 16 + 64 + 16, index.dataOffset(1));
        assertEquals(0, index.interfaceId(1));
    }

    @Test
    void readsClassicPcapInBothByteOrdersWithMicroAndNanosecondTimestamps() {
        for (final ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            final CaptureIndex micros = index(classic(order, false, 1, new int[] {60, 70}, new int[] {60, 70}));
            assertEquals(1_700_000_001_999_999_000L, micros.timestampNanos(1), order.toString());
            assertEquals(70, micros.length(1));
            final CaptureIndex nanos = index(classic(order, true, 1, new int[] {60}, new int[] {60}));
            assertEquals(1_700_000_000_999_999_999L, nanos.timestampNanos(0), order.toString());
        }
    }

    @Test
    void readsPcapngInterfacesAndNanosecondTimestamps() throws IOException {
        final CaptureIndex index = index(pcapngOf(3, 2, 0, 1));
        assertEquals(3, index.packets());
        assertEquals(3, index.interfaces());
        assertEquals(2, index.interfaceId(0));
        assertEquals(1, index.interfaceId(2));
        assertEquals(1_007, index.timestampNanos(0));
        assertEquals(62, index.length(2));
    }

    @Test
    void interfaceIdsStartAgainInEachSection() throws IOException {
        final byte[] first = pcapngOf(2, 1);
        final byte[] second = pcapngOf(1, 0);
        final byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        final CaptureIndex index = index(both);
        assertEquals(2, index.packets());
        assertEquals(1, index.interfaceId(0));
        assertEquals(0, index.interfaceId(1));
        // The second section's packet data sits 28 bytes into its last block.
        assertEquals(first.length + second.length - (28 + 60 + 4) + 28, index.dataOffset(1));
    }

    @Test
    void aSimplePacketBlockTakesThePreviousTimestamp() throws IOException {
        final byte[] withEpb = pcapngOf(1, 0);
        final ByteBuffer spb = ByteBuffer.allocate(16 + 60).order(ByteOrder.LITTLE_ENDIAN);
        spb.putInt(3).putInt(16 + 60).putInt(60).put(new byte[60]).putInt(16 + 60);
        final byte[] file = Arrays.copyOf(withEpb, withEpb.length + spb.capacity());
        System.arraycopy(spb.array(), 0, file, withEpb.length, spb.capacity());
        final CaptureIndex index = index(file);
        assertEquals(2, index.packets());
        assertEquals(index.timestampNanos(0), index.timestampNanos(1));
        assertEquals(withEpb.length + 12, index.dataOffset(1));
    }

    @Test
    void aTruncatedFileNamesWhereItEnds() {
        final byte[] whole = classic(ByteOrder.LITTLE_ENDIAN, false, 1, new int[] {100}, new int[] {100});
        final CaptureFormatException e = error(Arrays.copyOf(whole, whole.length - 10));
        assertEquals(40, e.offset());
        assertEquals("test.pcap at byte 40: truncated: the 100-byte packet the record announces needs 100 bytes, the file has 90 left", e.getMessage());
    }

    @Test
    void badMagicIsNamed() {
        final CaptureFormatException e = error(new byte[] {'G', 'I', 'F', '8', '9', 'a', 0, 0});
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("bad magic 0x47494638"), e.getMessage());
    }

    @Test
    void aBlockLengthThatLiesIsNamedWithItsOffset() throws IOException {
        final byte[] file = pcapngOf(1, 0);
        final int epb = file.length - (28 + 60 + 4);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(epb + 4, 28 + 60 + 4 + 8);
        final CaptureFormatException e = error(file);
        assertEquals(epb, e.offset());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());

        final byte[] trailer = pcapngOf(1, 0);
        ByteBuffer.wrap(trailer).order(ByteOrder.LITTLE_ENDIAN).putInt(trailer.length - 4, 12);
        final CaptureFormatException lie = error(trailer);
        assertTrue(lie.getMessage().contains("block length lies: header says 92, trailer says 12"), lie.getMessage());
        assertEquals(trailer.length - 4, lie.offset());
    }

    @Test
    void aSnaplenTruncatedPacketIsRefused() {
        final CaptureFormatException e = error(classic(ByteOrder.LITTLE_ENDIAN, false, 1, new int[] {96}, new int[] {1514}));
        assertEquals(32, e.offset());
        assertTrue(e.getMessage().contains("truncated by the capture's snaplen: 96 of 1514 bytes"), e.getMessage());
    }

    @Test
    void aNonEthernetLinkTypeIsRefused() {
        final CaptureFormatException e = error(classic(ByteOrder.BIG_ENDIAN, false, 101, new int[] {60}, new int[] {60}));
        assertEquals("test.pcap at byte 20: link type 101 is not Ethernet (1): the switch carries Ethernet frames", e.getMessage());
    }

    @Test
    void aPacketOnAnUndescribedInterfaceIsRefused() throws IOException {
        final byte[] file = pcapngOf(1, 0);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(file.length - (28 + 60 + 4) + 8, 3);
        assertTrue(error(file).getMessage().contains("packet on interface 3, but the section describes 1 interface(s)"));
    }

    @Test
    void noMutationOfAValidCaptureMakesTheReaderThrowAnythingElseOrHang() throws IOException {
        final byte[][] seeds = {pcapngOf(2, 0, 1, 1), classic(ByteOrder.LITTLE_ENDIAN, true, 1, new int[] {60, 61}, new int[] {60, 61})};
        final SplittableRandom random = new SplittableRandom(20261122);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int trial = 0; trial < 30_000; trial++) {
                final byte[] seed = seeds[trial % seeds.length];
                byte[] mutated = seed.clone();
                final int edits = 1 + random.nextInt(8);
                for (int edit = 0; edit < edits; edit++) {
                    final int at = random.nextInt(mutated.length);
                    switch (random.nextInt(4)) {
                        case 0 -> mutated[at] = (byte) random.nextInt(256);
                        case 1 -> mutated[at] ^= (byte) (1 << random.nextInt(8));
                        case 2 -> mutated = Arrays.copyOf(mutated, at);
                        default -> {
                            if (mutated.length >= 4) {
                                ByteBuffer.wrap(mutated).order(ByteOrder.LITTLE_ENDIAN).putInt(Math.min(at, mutated.length - 4), random.nextInt());
                            }
                        }
                    }
                    if (mutated.length == 0) {
                        break;
                    }
                }
                try {
                    final CaptureIndex index = index(mutated);
                    for (int i = 0; i < index.packets(); i++) {
                        assertTrue(index.dataOffset(i) + index.length(i) <= mutated.length, "trial " + trial + ": a packet past the end");
                    }
                } catch (final CaptureFormatException expected) {
                    assertTrue(expected.getMessage().startsWith("test.pcap at byte "), expected.getMessage());
                }
            }
        });
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void aCaptureDescribingHundredsOfThousandsOfInterfacesIsReadInLinearTime() throws IOException {
        // Read with one array copy per interface block, 400 000 of them took over a minute.
        final int interfaces = 400_000;
        final byte[] file = pcapngOf(interfaces, interfaces - 1);
        final CaptureIndex index = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> index(file),
            "host too slow, or reading interface blocks is no longer linear");
        assertEquals(interfaces, index.interfaces());
        assertEquals(interfaces - 1, index.interfaceId(0));
    }
}
