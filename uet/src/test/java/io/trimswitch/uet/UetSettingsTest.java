package io.trimswitch.uet;

import io.trimswitch.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UetSettingsTest {
    private static void refused(final String key, final Executable make) {
        final ConfigException e = assertThrows(ConfigException.class, make);
        assertTrue(e.getMessage().startsWith(key), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheirKey() {
        final UetSettings d = UetSettings.DEFAULTS;
        refused("--target-delay-us", () -> d.withTargetDelayUs(0.0));
        refused("--target-delay-us", () -> d.withTargetDelayUs(Double.NaN));
        refused("--target-delay-us", () -> d.withTargetDelayUs(Double.POSITIVE_INFINITY));
        refused("--initial-window", () -> d.withInitialWindowPackets(0));
        refused("--paths", () -> d.withEntropies(3));
        refused("--paths", () -> d.withEntropies(0));
        refused("--ack-bytes", () -> d.withAckBytes(-1));
        refused("--ecn", () -> d.withEcn(10, 5));
        refused("--ecn", () -> d.withEcn(-1, 5));
        refused("--rto-us", () -> d.withRtoUs(-3.0));
        refused("--load-balancer", () -> UetSettings.loadBalancer("ecmp"));
        refused("--oversubscribed-cc", () -> UetSettings.oversubscribedCc("yes"));
        refused("--oversubscribed-cc on paces the receivers' pulls", () -> d.withOversubscribedCc(UetSettings.OversubscribedMode.ON));
    }

    /** As uet-htsim: by itself only where receivers pace on an oversubscribed tree; on and off by hand whatever the tree. */
    @Test
    void theOversubscribedReceiverCcRunsWhereUetHtsimRunsIt() {
        final UetSettings receiver = UetSettings.DEFAULTS.withCc(UetSettings.CongestionControl.RECEIVER);
        final UetSettings both = UetSettings.DEFAULTS.withCc(UetSettings.CongestionControl.BOTH);
        assertTrue(receiver.oversubscribedCcOn(4));
        assertTrue(both.oversubscribedCcOn(2));
        assertFalse(receiver.oversubscribedCcOn(1));
        assertFalse(UetSettings.DEFAULTS.oversubscribedCcOn(4), "no pulls to slow with NSCC alone");
        assertFalse(both.withOversubscribedCc(UetSettings.OversubscribedMode.OFF).oversubscribedCcOn(8));
        assertTrue(receiver.withOversubscribedCc(UetSettings.oversubscribedCc("on")).oversubscribedCcOn(1));
    }

    @Test
    void theDefaultsAreUetHtsims() {
        assertEquals(UetSettings.LoadBalancer.REPS, UetSettings.DEFAULTS.loadBalancer());
        assertEquals(64, UetSettings.DEFAULTS.entropies());
        assertEquals(16_384, UetSettings.DEFAULTS.ackBytes());
        assertEquals(UetSettings.LoadBalancer.OBLIVIOUS, UetSettings.loadBalancer("oblivious"));
    }
}
