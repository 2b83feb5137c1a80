package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameTemplatesTest {
    @Test
    void writesTheSameBytesAsTheFrameBuilderWhateverTheFields() {
        final int[][] hosts = {{0, 1, 1, 1}, {5, 1, 5, 2}, {63, 2, 0, 1}, {17, 1, 42, 1}};
        final int[] flags = {NdpHeader.FLAG_DATA, NdpHeader.FLAG_ACK, NdpHeader.FLAG_NACK, NdpHeader.FLAG_PULL};
        final SplittableRandom random = new SplittableRandom(3);
        for (final int frameLength : new int[] {TrimSettings.NDP_HEADERS, 64, 1500, PacketPool.SLOT_BYTES}) {
            final FrameTemplates templates = new FrameTemplates(hosts.length);
            for (int id = 0; id < hosts.length; id++) {
                templates.define(id, frameLength, hosts[id][0], hosts[id][1], hosts[id][2], hosts[id][3], 100 + id, 10, 5000);
            }
            for (int trial = 0; trial < 2_000; trial++) {
                final int id = random.nextInt(hosts.length);
                final int flag = flags[random.nextInt(flags.length)];
                final int sequence = trial < 10 ? 0xFFFF - trial : random.nextInt(1 << 20);
                final int pull = random.nextInt(1 << 17);
                final UnsafeBuffer expected = new UnsafeBuffer(new byte[4200]);
                final UnsafeBuffer written = new UnsafeBuffer(new byte[4200]);
                WorkloadFrames.write(expected, 64, frameLength, hosts[id][0], hosts[id][1], hosts[id][2], hosts[id][3], 100 + id, flag,
                    sequence, pull, 10, 5000);
                templates.write(written, 64, id, flag, sequence, pull);
                final byte[] want = new byte[frameLength];
                final byte[] got = new byte[frameLength];
                expected.getBytes(64, want);
                written.getBytes(64, got);
                assertArrayEquals(want, got, "template " + id + " flags " + flag + " sequence " + sequence + " length " + frameLength);
                assertTrue(Ipv4Header.checksumValid(written, 64 + EthernetHeader.LENGTH));
            }
        }
    }
}
