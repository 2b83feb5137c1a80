package io.trimswitch.uet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * NSCC's constants for uet-htsim's default 16-host three-tier tree (100 Gb/s, 1 µs links, 4150-byte packets): the
 * values uet-htsim prints for the same network.
 */
class NsccParametersTest {
    private static final long RTT = 14_022_720;
    private final NsccParameters p = new NsccParameters(RTT, 100_000_000_000L, NsccParameters.defaultTargetDelay(RTT), 4150, 4086);

    @Test
    void scaledFromTheBandwidthDelayProductAndTheTargetDelay() {
        assertEquals(10_517_040, p.targetDelayPicos());
        assertEquals(0.00159158, p.alpha, 1e-8);
        assertEquals(23_873.7, p.fairIncrease, 0.1);
        assertEquals(716.21, p.eta, 0.01);
        assertEquals(0.29214, p.fastIncreaseScale, 1e-5);
        assertEquals(42_068_160, p.quickAdaptThreshold);
        assertEquals(33_200, p.adjustBytes);
        assertEquals(175_284, p.bdp(RTT));
    }

    @Test
    void aFlowStartsAtOneAndAHalfBandwidthDelayProducts() {
        final Nscc nscc = new Nscc(p, new long[1]);
        assertEquals(262_926, nscc.window(0));
    }
}
