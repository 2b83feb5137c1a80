package io.trimswitch.dataplane.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any bytes as a capture file to replay, pcap or pcapng. Reading it either finds its packets, each inside the file,
 * or stops with a {@link CaptureFormatException} whose message is one line naming the file and the byte offset;
 * nothing else may escape, and nothing the file's length fields say is allocated before the bytes are there.
 */
class CaptureIndexFuzzTest {
    private static final String SOURCE = "fuzzed.pcap";

    @FuzzTest
    void everyCaptureIsIndexedWithinItsBytesOrRefusedInOneLine(final byte[] file) {
        final UnsafeBuffer buffer = new UnsafeBuffer(file);
        final CaptureIndex index;
        try {
            index = CaptureIndex.of(buffer, file.length, SOURCE);
        } catch (final CaptureFormatException e) {
            assertTrue(e.getMessage().startsWith(SOURCE), e.getMessage());
            assertTrue(e.offset() >= 0 && e.offset() <= file.length, "offset " + e.offset() + " of " + file.length);
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
            return;
        }
        assertTrue(index.packets() <= file.length / 16, index.packets() + " packets in " + file.length + " bytes");
        assertTrue(index.interfaces() >= 1 || index.packets() == 0, "packets without an interface");
        for (int i = 0; i < index.packets(); i++) {
            assertTrue(index.length(i) >= 0 && index.dataOffset(i) >= 0 && index.dataOffset(i) + index.length(i) <= file.length,
                "packet " + i + " at " + index.dataOffset(i) + " of " + index.length(i) + " bytes in a file of " + file.length);
            assertTrue(index.interfaceId(i) >= 0 && index.interfaceId(i) < Math.max(1, index.interfaces()), "interface " + index.interfaceId(i));
        }
    }
}
