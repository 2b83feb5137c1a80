package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A port's receive ring absorbs a burst of 4096 frames, of 64 bytes and of a full 1500-byte MTU, that arrives while the
 * switch is stopped, and counts what a larger burst overflows as ringOverflow ({@code src/test/mininet/ring_burst.py}):
 * its slots fit the MTU, and there are still as many of them. Needs root and Mininet.
 */
@Tag("host-timing")
class RingBurstEndToEndTest {
    @Test
    void aBurstOf4096FramesOfAnySizeUpToTheMtuWaitsInTheRingAndALargerOneIsCountedAsItOverflows() throws IOException, InterruptedException {
        final String output = HostScripts.run("ring_burst.py");
        for (final int bytes : new int[] {64, 1514}) {
            assertTrue(output.contains("burst: 4096 frames of " + bytes + " bytes: 0 ring drops"), output);
            final String larger = output.substring(output.indexOf("burst: 5096 frames of " + bytes + " bytes: "));
            final int drops = Integer.parseInt(larger.substring(larger.indexOf(": ", 7) + 2, larger.indexOf(" ring drops")));
            assertTrue(drops > 0 && drops <= 1000, "1000 frames past 4096 overflow the ring, and are counted: " + output);
        }
    }
}
