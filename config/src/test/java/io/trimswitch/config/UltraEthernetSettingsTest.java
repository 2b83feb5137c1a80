package io.trimswitch.config;

import io.trimswitch.dataplane.packet.TrimSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UltraEthernetSettingsTest {
    private static String refused(final String yaml) {
        return assertThrows(ConfigException.class, () -> SettingsFiles.parse(yaml, "uec.yaml").validate()).getMessage();
    }

    @Test
    void theUecExampleMarksFabricAndLastHopTrimsApartAndNeverTrimsNoTrim() {
        final TrimSettings trim = SettingsFiles.load(Path.of("examples/uec.yaml")).validate().trimSettings();
        assertEquals(13, trim.trimmedDscp(48));
        assertEquals(11, trim.trimmedDscp(3));
        assertTrue(trim.isTrimmableDscp(14));
        assertFalse(trim.isTrimmableDscp(12));
        assertFalse(trim.mayTrim(12));
        assertTrue(trim.hasOptOuts());
    }

    @Test
    void withoutTheMarksTheSettingsAndTheirEchoAreTheReproducedSwitchs() {
        assertEquals(SettingsFiles.toYaml(Settings.DEFAULTS), SettingsFiles.toYaml(Settings.DEFAULTS.validate()));
        assertFalse(SettingsFiles.toYaml(Settings.DEFAULTS.validate()).contains("fabricDscp"));
        assertEquals(11, Settings.DEFAULTS.validate().trimSettings().trimmedDscp(5));
    }

    @Test
    void impossibleMarksAndRulesAreOneLineNamingTheSetting() {
        assertEquals("trim.noTrimDscp 10 is also in trim.trimmableDscp: a DSCP cannot be both", refused("trim:\n  noTrimDscp: [10]\n"));
        assertEquals("trim.fabricPorts values must be 0..63, got 64", refused("trim:\n  fabricPorts: [64]\n"));
        assertTrue(refused("trim:\n  fabricDscp: 10\n").startsWith("trim: fabric trimmed DSCP 10 is also in the trimmable set"));
        assertEquals("trim.disable[0].source must be an IPv4 prefix a.b.c.d/len, got '10.0.0.1'",
            refused("trim:\n  disable:\n    - source: 10.0.0.1\n"));
        assertEquals("trim.disable[0].destinationPorts: '70000' in '70000' is not a number 0..65535",
            refused("trim:\n  disable:\n    - destinationPorts: '70000'\n"));
        assertEquals("trim.disable[0] matches every packet: give at least one of source, destination, protocol, destinationPorts, dscp",
            refused("trim:\n  disable:\n    - {}\n"));
    }
}
