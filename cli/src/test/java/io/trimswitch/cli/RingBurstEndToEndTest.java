package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A port's receive ring absorbs a burst of 4096 frames, of 64 bytes and of a full 1500-byte MTU, that arrives while the
 * switch is stopped, and counts what a larger burst overflows ({@code src/test/mininet/ring_burst.py}): its slots fit
 * the MTU, and there are still as many of them. On {@code af_packet} the overflow is ringOverflow; on {@code af_xdp},
 * whose fill ring lends as many chunks as its receive ring holds, the fill ring runs dry first: fillRingEmpty, which
 * {@code stats} shows apart. Needs root and Mininet.
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
    void onAfXdpABurstPastTheRingsIsCountedAsTheFillRingRunningDry() throws IOException, InterruptedException {
        final String output = HostScripts.runOn("af_xdp", "ring_burst.py");
        for (final int bytes : new int[] {64, 1514}) {
            assertTrue(output.contains("burst: 4096 frames of " + bytes + " bytes: 0 ring drops"), output);
            final long[] larger = drops(output, bytes);
            assertTrue(larger[0] > 0 && larger[0] <= 1000, "1000 frames past 4096 are counted: " + output);
            assertEquals(larger[0], larger[1], "each of them at an empty fill ring: " + output);
        }
    }

    /** The 5096-frame burst of {@code bytes}-byte frames: its ring drops, and those of them at an empty fill ring. */
    private static long[] drops(final String output, final int bytes) {
        final String line = output.substring(output.indexOf("burst: 5096 frames of " + bytes + " bytes: "));
        final long all = Long.parseLong(line.substring(line.indexOf(": ", 7) + 2, line.indexOf(" ring drops")));
        final long fill = Long.parseLong(line.substring(line.indexOf(" (") + 2, line.indexOf(" at an empty fill ring")));
        return new long[] {all, fill};
    }
}
