package io.trimswitch.network.fixedwindow;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Transports;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.switching.run.RunOutcome;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport that exists only here runs as a lone switch's hosts by its name alone, as a settings file's
 * {@code transport.kind} or {@code scenario --transport} gives it: nothing in {@code config} knows of it.
 */
class FixedWindowLoneSwitchTest {
    private static Settings incast(final String kind) {
        return Settings.DEFAULTS.withTransport(t -> t.withKind(Settings.TransportKind.of(kind)))
            .withWorkload(w -> w.withPattern("incast:8->1").withPackets(300)).validate();
    }

    @Test
    void aLoneSwitchRunsTheFixedWindowHostsNamedInItsSettings() {
        final VirtualTimeSwitch loneSwitch = new VirtualTimeSwitch(incast("fixed-window"));
        final RunOutcome outcome = loneSwitch.run();
        assertEquals(0, outcome.leakedBuffers(), "every buffer back in the pool");
        assertEquals(0, outcome.inFlightAtEnd(), "every flow finished before the run's end: " + outcome);
        assertTrue(outcome.source().source() instanceof FixedWindowHosts, "the hosts are the fixed window's: " + outcome.source().source());
    }

    @Test
    void aNameNoTransportIsRegisteredUnderIsRefusedInOneLineListingThoseThereAre() {
        final String refused = assertThrows(ConfigException.class, () -> new VirtualTimeSwitch(incast("tcp"))).getMessage();
        assertEquals("transport.kind must be one of open-loop, fixed-window, ndp, got 'tcp'", refused);
        assertSame(FixedWindowTransport.class, Transports.forKind(Settings.TransportKind.of("fixed-window")).getClass());
        assertNull(Transports.forKind(Settings.TransportKind.OPEN_LOOP), "open-loop senders are built in");
    }

    @Test
    void aKindSpelledAsNoTransportIsRefusedWhereTheSettingsAreRead() {
        assertEquals("transport.kind must be a transport's name (lower-case letters, digits and '-', at most 32), got 'Fixed Window'",
            assertThrows(ConfigException.class, () -> Settings.TransportKind.of("Fixed Window")).getMessage());
        assertSame(Settings.TransportKind.NDP, Settings.TransportKind.of("ndp"));
    }
}
