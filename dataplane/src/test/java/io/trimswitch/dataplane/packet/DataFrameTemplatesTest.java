package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataFrameTemplatesTest {
    @Test
    void writesTheSameBytesAsTheFrameBuilderForEverySequenceNumber() {
        final int[] senders = {0, 5, 63, 17};
        final int[] receivers = {1, 5, 0, 42};
        final SplittableRandom random = new SplittableRandom(3);
        for (final int frameLength : new int[] {TrimSettings.NDP_HEADERS, 64, 1500, 4096}) {
            final DataFrameTemplates templates = new DataFrameTemplates(senders, receivers, frameLength, 10, 5000);
            for (int trial = 0; trial < 2_000; trial++) {
                final int flow = random.nextInt(senders.length);
                final int sequence = trial < 10 ? 0xFFFF - trial : random.nextInt(1 << 20);
                final UnsafeBuffer expected = new UnsafeBuffer(new byte[4200]);
                final UnsafeBuffer written = new UnsafeBuffer(new byte[4200]);
                WorkloadFrames.writeData(expected, 64, frameLength, senders[flow], receivers[flow], flow, sequence, 10, 5000);
                templates.write(written, 64, flow, sequence);
                final byte[] want = new byte[frameLength];
                final byte[] got = new byte[frameLength];
                expected.getBytes(64, want);
                written.getBytes(64, got);
                assertArrayEquals(want, got, "flow " + flow + " sequence " + sequence + " length " + frameLength);
                assertTrue(Ipv4Header.checksumValid(written, 64 + EthernetHeader.LENGTH));
            }
        }
    }
}
