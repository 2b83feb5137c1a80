package io.trimswitch.switching.source;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PatternTest {
    @Test
    void aPortHostingTwoSendersIsRefused() {
        final ConfigException error = assertThrows(ConfigException.class, () -> Pattern.parse("pairs:1->2,1->3", 4, 16));
        assertEquals("pattern 'pairs:1->2,1->3': port 1 would host two senders", error.getMessage());
    }

    @Test
    void theWorstCaseSendsFromEveryPortToTheNextPortOfPipelineZero() {
        final Pattern shift = Pattern.parse("shift", 4, 16);
        assertEquals(64, shift.flows());
        assertEquals(1, shift.receiver(0));
        assertEquals(0, shift.receiver(15));
        assertEquals(1, shift.receiver(16));
        assertEquals(0, shift.receiver(63));
    }

    @Test
    void incastSpreadsSendersOverReceiversModuloK() {
        final Pattern incast = Pattern.parse("incast:64->4", 4, 16);
        assertEquals(3, incast.receiver(63));
        assertEquals(0, incast.receiver(4));
    }

    @Test
    void theSettingsPatternIsReadOnTheirFabricsPorts() {
        final Pattern pattern = Pattern.of(Settings.DEFAULTS.withWorkload(w -> w.withPattern("incast:8->2")).withFabric(f -> f.withPipelines(2)));
        assertEquals(8, pattern.flows());
        assertEquals(1, pattern.receiver(7));
    }
}
