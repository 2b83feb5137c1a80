package io.trimswitch.sonic;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;

import io.trimswitch.dataplane.packet.TrimSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigDbTest {
    private static Settings applied(final String json) {
        return ConfigDb.apply(json, "config_db.json", Settings.DEFAULTS);
    }

    private static String refused(final String json) {
        return assertThrows(ConfigException.class, () -> applied(json).validate()).getMessage();
    }

    @Test
    void theTwoClassExampleGivesATcpQueueThatDropsAndAnNdpQueueThatTrims() {
        final Settings typed = ConfigDb.apply(Path.of("../config/examples/config_db-two-class.json"), Settings.DEFAULTS).validate();
        assertEquals(2, typed.qos().queues().size());
        assertEquals(Settings.Discard.DROP, typed.qos().queues().get(0).discard());
        assertEquals(1024, typed.qos().queues().get(0).packets(), "1 536 000 bytes of 1500-byte packets");
        assertEquals(Settings.Discard.TRIM, typed.qos().queues().get(1).discard());
        assertEquals(16, typed.qos().queues().get(1).packets());
        assertEquals(Map.of(0, 0, 10, 1, 46, 0), typed.qos().dscpToTc());
        final TrimSettings trim = typed.trimSettings();
        assertTrue(trim.isTrimmableDscp(10));
        assertFalse(trim.isTrimmableDscp(0));
        assertEquals(1, trim.queueOf(10));
    }

    @Test
    void theSameSwitchInYamlAndInConfigDbIsTheSameSwitch() {
        final Settings fromDb = ConfigDb.apply(Path.of("../config/examples/config_db-two-class.json"), Settings.DEFAULTS);
        final Settings yaml = SettingsFiles.load(Path.of("../config/examples/two-class.yaml"));
        // The YAML example leaves DSCPs 0 and 46 to the default class 0, which the config_db lists.
        final Map<Integer, Integer> classes = new java.util.TreeMap<>(yaml.qos().dscpToTc());
        classes.put(0, 0);
        classes.put(46, 0);
        final Settings fromYaml = yaml.withQos(q -> q.withDscpToTc(classes));
        assertEquals(SettingsFiles.toYaml(fromYaml.validate()), SettingsFiles.toYaml(fromDb.validate()));
    }

    @Test
    void switchTrimmingSetsTheTrimSizeAndTheTrimmedDscp() {
        Settings settings = applied("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"size\": \"128\", \"dscp_value\": \"48\", \"queue_index\": \"6\"}}}");
        assertEquals(128, settings.trim().sizeBytes());
        assertEquals(48, settings.trim().dscp());
        assertTrue(settings.qos().queues().isEmpty(), "no queue tables: the reproduced switch's queues");
    }

    @Test
    void whatTheModelCannotDoIsRefusedInOneLineNamingTableAndKey() {
        assertEquals("config_db.json: SWITCH_TRIMMING|GLOBAL: dscp_value from-tc and queue_index dynamic need tc_value, the traffic class of trimmed packets",
            refused("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"dscp_value\": \"from-tc\"}}}"));
        assertEquals("config_db.json: SWITCH_TRIMMING|GLOBAL: size must be a number 1..9216, got 'big'",
            refused("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"size\": \"big\"}}}"));
        assertEquals("config_db.json: BUFFER_PROFILE|p: packet_discard_action must be drop or trim, got 'keep'",
            refused("{\"BUFFER_PROFILE\": {\"p\": {\"packet_discard_action\": \"keep\"}}, \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"p\"}}}"));
        assertEquals("config_db.json: BUFFER_PROFILE|q: is named by BUFFER_QUEUE but not defined",
            refused("{\"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"q\"}}}"));
        assertTrue(refused("{\"BUFFER_PROFILE\": {\"a\": {}, \"b\": {}}, \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"a\"}, \"Ethernet4|0\": {\"profile\": \"b\"}}}")
            .contains("every port of the switch has the same queues"));
        assertTrue(refused("{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"A\"}, \"Ethernet4\": {\"dscp_to_tc_map\": \"B\"}},"
            + " \"BUFFER_PROFILE\": {\"p\": {}}, \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"p\"}}}").contains("ports use different maps"));
        assertEquals("config_db.json: BUFFER_QUEUE|Ethernet0|9: queue must be 0..7, got 9",
            refused("{\"BUFFER_QUEUE\": {\"Ethernet0|9\": {\"profile\": \"p\"}}}"));
        assertTrue(refused("[1, 2]").startsWith("config_db.json: a config_db is a JSON object of tables"));
        assertTrue(refused("{").startsWith("config_db.json: not valid JSON"));
    }

    @Test
    void oldStyleReferencesInBracketsAreRead() {
        Settings settings = applied("{\"BUFFER_PROFILE\": {\"p\": {\"packet_discard_action\": \"trim\"}},"
            + " \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"[BUFFER_PROFILE|p]\"}}}");
        assertEquals("trim", settings.qos().queues().get(0).discard().label());
    }

    private static final String TWO_QUEUES = "\"BUFFER_PROFILE\": {\"d\": {\"packet_discard_action\": \"drop\", \"size\": \"150000\"},"
        + " \"t\": {\"packet_discard_action\": \"trim\"}}, \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"d\"}, \"Ethernet0|1\": {\"profile\": \"t\"}}";

    @Test
    void dscpFromTcGivesEachPortTheDscpItsTcToDscpMapGivesTheTrimmedClass() {
        Settings settings = applied("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"dscp_value\": \"from-tc\", \"tc_value\": \"7\"}},"
            + " \"TC_TO_DSCP_MAP\": {\"host\": {\"7\": \"11\"}, \"spine\": {\"7\": \"13\"}},"
            + " \"PORT_QOS_MAP\": {\"Ethernet8\": {\"tc_to_dscp_map\": \"spine\"}, \"Ethernet0\": {\"tc_to_dscp_map\": \"host\"},"
            + " \"Ethernet4\": {\"tc_to_dscp_map\": \"host\"}, \"Ethernet12\": {\"tc_to_dscp_map\": \"spine\"}}}");
        assertEquals(11, settings.trim().dscp());
        assertEquals(13, settings.trim().fabricDscp());
        assertEquals(java.util.List.of(2, 3), settings.trim().fabricPorts(), "Ethernet8 and Ethernet12 are ports 2 and 3 in name order");
        final TrimSettings trim = settings.validate().trimSettings();
        assertEquals(13, trim.trimmedDscp(2));
        assertEquals(11, trim.trimmedDscp(1));
    }

    @Test
    void queueIndexNamesTheDataQueueTrimmedPacketsWaitIn() {
        assertEquals(1, applied("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"queue_index\": \"1\"}}, " + TWO_QUEUES + "}").qos().trimmedQueue());
        assertEquals(null, applied("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"queue_index\": \"7\"}}, " + TWO_QUEUES + "}").qos().trimmedQueue(),
            "a queue the tables do not define: the header queue plays it");
        Settings dynamic = applied("{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"queue_index\": \"dynamic\", \"tc_value\": \"5\"}}, "
            + TWO_QUEUES + ", \"TC_TO_QUEUE_MAP\": {\"m\": {\"5\": \"1\"}}, \"PORT_QOS_MAP\": {\"Ethernet0\": {\"tc_to_queue_map\": \"m\"}}}");
        assertEquals(1, dynamic.qos().trimmedQueue(), "dynamic: the queue of tc_value through TC_TO_QUEUE_MAP");
        dynamic.validate();
    }
}
