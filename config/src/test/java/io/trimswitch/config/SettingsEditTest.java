package io.trimswitch.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsEditTest {
    private static Settings withTwoPorts() {
        return Settings.DEFAULTS.withPorts(List.of(Settings.Port.DEFAULTS.withInterfaceName("veth0"), Settings.Port.DEFAULTS.withInterfaceName("veth1")))
            .validate();
    }

    @Test
    void aKeySetToAValueChangesThatKeyAlone() {
        final Settings base = withTwoPorts();
        final Settings changed = SettingsEdit.set(base, "trim.dscp", "12").validate();
        assertEquals(12, changed.trim().dscp());
        assertEquals(List.of("trim.dscp"), SettingsEdit.changedKeys(base, changed));
        final Settings listed = SettingsEdit.set(base, "trim.trimmableDscp", "[10, 14]").validate();
        assertEquals(List.of(10, 14), listed.trim().trimmableDscp());
        assertEquals(List.of("trim.trimmableDscp"), SettingsEdit.changedKeys(base, listed));
    }

    @Test
    void aPortAddedAtTheEndOfTheListIsTheNextPortAndTheOthersStayAsTheyWere() {
        final Settings base = withTwoPorts();
        final Settings more = SettingsEdit.append(base, "ports", "{interface: veth9}").validate();
        assertEquals(3, more.ports().size());
        assertEquals("veth9", more.ports().get(2).interfaceName());
        assertEquals("veth1", more.ports().get(1).interfaceName());
        assertEquals(List.of("ports"), SettingsEdit.changedKeys(base, more));
        final ConfigException notAList = assertThrows(ConfigException.class, () -> SettingsEdit.append(base, "trim", "{}"));
        assertEquals("no list 'trim' in the settings", notAList.getMessage());
    }

    @Test
    void aPortIsNamedByItsIndexAndASettingLeftOutCanBeGiven() {
        final Settings base = withTwoPorts();
        final Settings slower = SettingsEdit.set(base, "ports.1.rateGbps", "0.1").validate();
        assertEquals(100_000_000L, slower.portRateBps(1));
        assertEquals(base.portRateBps(0), slower.portRateBps(0));
        assertEquals(List.of("ports.1.rateGbps"), SettingsEdit.changedKeys(base, slower));
        final Settings meters = SettingsEdit.set(base, "control.pessimisticRateGbps", "5").validate();
        assertEquals(List.of("control.pessimisticRateGbps"), SettingsEdit.changedKeys(base, meters));
        final Settings moved = SettingsEdit.set(base, "ports.0.interface", "veth9").validate();
        assertEquals(List.of("ports.0.interface"), SettingsEdit.changedKeys(base, moved));
    }

    @Test
    void unknownKeysWrongTypesAndBadPathsAreOneLine() {
        final Settings base = withTwoPorts();
        assertTrue(message(() -> SettingsEdit.set(base, "trim.dscpp", "1")).startsWith("set trim.dscpp: unknown key 'trim.dscpp'"));
        assertTrue(message(() -> SettingsEdit.set(base, "trim.dscp", "twelve")).startsWith("set trim.dscp: bad value for 'trim.dscp'"));
        assertEquals("set: no setting 'nosuch.dscp' (no section 'nosuch')", message(() -> SettingsEdit.set(base, "nosuch.dscp", "1")));
        assertEquals("set: 'ports.7.rateGbps': index 7 is not 0..1", message(() -> SettingsEdit.set(base, "ports.7.rateGbps", "1")));
        assertTrue(message(() -> SettingsEdit.set(base, "trim..dscp", "1")).startsWith("set: a key is sections and names joined by dots"));
        assertTrue(message(() -> SettingsEdit.set(base, "trim.dscp", "")).startsWith("set trim.dscp: give a value"));
        assertTrue(message(() -> SettingsEdit.set(base, "trim.dscp", "[1")).startsWith("set trim.dscp: not valid YAML"));
        for (final String bad : List.of("-1", "64", ".nan", "1e99")) {
            assertThrows(ConfigException.class, () -> SettingsEdit.set(base, "trim.dscp", bad).validate(), bad);
        }
    }

    private static String message(final Runnable edit) {
        return assertThrows(ConfigException.class, edit::run).getMessage();
    }
}
