package io.trimswitch.config;

import io.trimswitch.dataplane.packet.TrimSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QosSettingsTest {
    private static String refused(final String yaml) {
        return assertThrows(ConfigException.class, () -> SettingsFiles.parse(yaml, "qos.yaml").validate()).getMessage();
    }

    @Test
    void theTwoClassExampleTrimsDscp10InQueue1AndDropsEverythingElseInQueue0() {
        final Settings settings = SettingsFiles.load(Path.of("examples/two-class.yaml")).validate();
        final TrimSettings trim = settings.trimSettings();
        assertEquals(1, trim.queueOf(10));
        assertEquals(0, trim.queueOf(0));
        assertEquals(0, trim.queueOf(46));
        assertTrue(trim.isTrimmableDscp(10));
        assertFalse(trim.isTrimmableDscp(0));
        assertTrue(trim.trims(1));
        assertFalse(trim.trims(0));
        assertEquals(1024 + 16, settings.dataQueuePacketsPerPort());
    }

    @Test
    void withoutQueuesEveryDscpGoesToTheOneDataQueueAndTrimmableDscpsDecide() {
        final TrimSettings trim = Settings.DEFAULTS.validate().trimSettings();
        for (int dscp = 0; dscp < 64; dscp++) {
            assertEquals(0, trim.queueOf(dscp));
            assertEquals(dscp == 10, trim.isTrimmableDscp(dscp));
        }
        assertTrue(trim.trims(0));
    }

    @Test
    void anAlreadyTrimmedHeaderIsNeverTrimmableAgainEvenInATrimmingQueue() {
        final TrimSettings trim = SettingsFiles.parse("qos:\n  queues: [{packets: 16}]\n", "one.yaml").validate().trimSettings();
        assertTrue(trim.isTrimmableDscp(0));
        assertFalse(trim.isTrimmableDscp(11), "DSCP 11 marks trimmed headers");
    }

    @Test
    void aDscpWhoseClassHasNoQueueIsRefusedNamingTheMap() {
        assertTrue(refused("qos:\n  queues: [{packets: 16}]\n  dscpToTc: {10: 3}\n")
            .startsWith("DSCP 10 is in traffic class 3, which goes to queue 3, but qos.queues has 1"));
    }

    @Test
    void mapsWithoutQueuesAreRefused() {
        assertEquals("qos.dscpToTc, qos.tcToQueue and qos.trimmedQueue name queues: list them in qos.queues", refused("qos:\n  dscpToTc: {10: 1}\n"));
        assertEquals("qos.trimmedQueue must be 0..1, got 2", refused("qos:\n  queues: [{}, {}]\n  trimmedQueue: 2\n"));
    }

    @Test
    void trimmableDscpsDoNotMixWithQueuesThatSayWhatTrims() {
        assertTrue(refused("trim:\n  trimmableDscp: [12]\nqos:\n  queues: [{packets: 16}]\n").startsWith("trim.trimmableDscp does not apply with qos.queues"));
    }

    @Test
    void badQueueValuesAreOneLineNamingTheQueue() {
        assertEquals("qos.queues[1].discard must be one of trim, drop, got 'keep'",
            refused("qos:\n  queues: [{packets: 16}, {packets: 16, discard: keep}]\n"));
        assertEquals("qos.queues[0].weight must be 1..1000, got 0", refused("qos:\n  queues: [{weight: 0}]\n"));
        assertEquals("qos.queues[0].packets must be 1..1048576, got 0", refused("qos:\n  queues: [{packets: 0}]\n"));
        assertEquals("qos.queues (queues per port) must be at most 8, got 9", refused("qos:\n  queues: [{}, {}, {}, {}, {}, {}, {}, {}, {}]\n"));
        assertEquals("qos.dscpToTc key (a DSCP) must be 0..63, got 64", refused("qos:\n  queues: [{}]\n  dscpToTc: {64: 0}\n"));
    }
}
