package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live switch's counters add up over all its ports ({@code src/test/mininet/counters_identity.py}): with Mininet
 * hosts on links to its interface ports, after pings, TCP, a burst of small datagrams and frames to 802.1D reserved group addresses, frames
 * received plus the extra copies flooding made equal frames sent plus frames dropped, and the reserved-group frames are
 * counted where they came in and reach no host. Needs root, Mininet and the tools {@link HostScripts} names; skipped without.
 */
@Tag("host-timing")
class CountersIdentityEndToEndTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void receivedPlusExtraFloodCopiesIsSentPlusDroppedAndReservedGroupFramesStayAtTheirPort(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "counters_identity.py");
        assertTrue(output.contains("e2e: the counters add up"), output);
        assertTrue(output.contains("e2e: 5 reserved-group frames counted at port 0, none forwarded"), output);
        assertTrue(output.contains("e2e: passed"), output);
    }
}
