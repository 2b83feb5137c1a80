package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A port's receive ring absorbs a burst of 4096 frames, of 64 bytes and of a full 1500-byte MTU, that arrives while the
 * switch is stopped, and counts what a larger burst overflows ({@code src/test/mininet/ring_burst.py}): its slots fit
 * the MTU, and there are still as many of them. On {@code af_packet} the overflow is ringOverflow. On {@code af_xdp}
 * the pool buffers lent to the fill ring (2048, half its receive ring, as each of a shard's ports keeps from the shard's
 * piece of the pool) take the burst: what comes after finds the fill ring dry, fillRingEmpty, which {@code stats}
 * shows apart. Needs root and Mininet.
 */
@Tag("host-timing")
class RingBurstEndToEndTest {
    @Test
    void aBurstOf4096FramesOfAnySizeUpToTheMtuWaitsInTheRingAndALargerOneIsCountedAsItOverflows() throws IOException, InterruptedException {
        final String output = HostScripts.run("ring_burst.py");
        for (final int bytes : new int[] {64, 1514}) {
            assertTrue(output.contains("burst: 4096 frames of " + bytes + " bytes: 0 ring drops"), output);
            final long[] larger = drops(output, bytes);
            assertTrue(larger[0] > 0 && larger[0] <= 1000, "1000 frames past 4096 overflow the ring, and are counted: " + output);
            assertEquals(0, larger[1], "an AF_PACKET port has no fill ring: " + output);
        }
    }

    @Test
    void onAfXdpABurstPastTheFillRingsBuffersIsCountedAsTheFillRingRunningDry() throws IOException, InterruptedException {
        final String output = HostScripts.runOn("af_xdp", "ring_burst.py");
        for (final int bytes : new int[] {64, 1514}) {
            for (final int burst : new int[] {4096, 5096}) {
                final long[] dropped = drops(output, burst, bytes);
                assertEquals(burst - 2048, dropped[0], "the frames past the fill ring's 2048 buffers are counted: " + output);
                assertEquals(dropped[0], dropped[1], "each of them at an empty fill ring: " + output);
            }
        }
    }

    /** The 5096-frame burst of {@code bytes}-byte frames: its ring drops, and those of them at an empty fill ring. */
    private static long[] drops(final String output, final int bytes) {
        return drops(output, 5096, bytes);
    }

    /** The {@code burst}-frame burst of {@code bytes}-byte frames: its ring drops, and those of them at an empty fill ring. */
    private static long[] drops(final String output, final int burst, final int bytes) {
        final String line = output.substring(output.indexOf("burst: " + burst + " frames of " + bytes + " bytes: "));
        final long all = Long.parseLong(line.substring(line.indexOf(": ", 7) + 2, line.indexOf(" ring drops")));
        final long fill = Long.parseLong(line.substring(line.indexOf(" (") + 2, line.indexOf(" at an empty fill ring")));
        return new long[] {all, fill};
    }
}
