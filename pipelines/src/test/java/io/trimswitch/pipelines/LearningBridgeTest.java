package io.trimswitch.pipelines;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LearningBridgeTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long HOST_A = 0x0200_0000_000AL;
    private static final long HOST_B = 0x0200_0000_000BL;

    @Test
    void aLearnedSourceIsWhereFramesToItGoAndUnknownOrBroadcastDestinationsFlood() {
        final LearningBridge bridge = new LearningBridge(300 * SECOND, 1024, Map.of());
        assertEquals(LearningBridge.FLOOD, bridge.lookup(HOST_A, 0), "unknown");
        bridge.learn(HOST_A, 3, 0);
        assertEquals(3, bridge.lookup(HOST_A, SECOND));
        assertEquals(LearningBridge.FLOOD, bridge.lookup(0xFFFF_FFFF_FFFFL, SECOND), "broadcast");
        assertEquals(LearningBridge.FLOOD, bridge.lookup(0x0100_5E00_0001L, SECOND), "IPv4 multicast has the group bit");
        bridge.learn(0x0100_5E00_0001L, 2, SECOND);
        assertEquals(1, bridge.size(), "a group address is never learned as a source");
        bridge.learn(HOST_A, 1, 2 * SECOND);
        assertEquals(1, bridge.lookup(HOST_A, 2 * SECOND), "a host that moved is found on its new port");
    }

    @Test
    void anEntryOlderThanTheAgingTimeIsForgottenAndTheFrameFloods() {
        final LearningBridge bridge = new LearningBridge(10 * SECOND, 1024, Map.of());
        bridge.learn(HOST_B, 4, 0);
        assertEquals(4, bridge.lookup(HOST_B, 10 * SECOND));
        assertEquals(LearningBridge.FLOOD, bridge.lookup(HOST_B, 10 * SECOND + 1));
        assertEquals(0, bridge.size());
    }

    @Test
    void staticEntriesNeverAgeAndAreNotRelearned() {
        final LearningBridge bridge = new LearningBridge(SECOND, 1024, Map.of(HOST_A, 7));
        bridge.learn(HOST_A, 2, 0);
        assertEquals(7, bridge.lookup(HOST_A, 1000 * SECOND));
        assertThrows(IllegalArgumentException.class, () -> new LearningBridge(0, 1024, Map.of()));
    }

    @org.junit.jupiter.api.Test
    void learningSaysWhenItIsNewsANewAddressAMoveOrOneThatHadAgedOut() {
        final LearningBridge bridge = new LearningBridge(1_000, 1024, java.util.Map.of());
        final long mac = 0x0200_0000_0001L;
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(mac, 1, 0), "a new address");
        org.junit.jupiter.api.Assertions.assertFalse(bridge.learn(mac, 1, 500), "seen again on the same port");
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(mac, 2, 600), "moved to another port");
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(mac, 2, 5_000), "back after it had aged out");
        org.junit.jupiter.api.Assertions.assertFalse(bridge.learn(0xFFFF_FFFF_FFFFL, 1, 0), "broadcast is never learned");
    }

    @Test
    void itListsItsStaticAndLiveEntriesWithTheirAgesAndLeavesOutTheAgedOnes() {
        final LearningBridge bridge = new LearningBridge(10 * SECOND, 1024, Map.of(HOST_A, 7));
        final long hostC = 0x02_00_00_00_00_0cL;
        bridge.learn(HOST_B, 1, 0);
        bridge.learn(hostC, 2, 5 * SECOND);
        final java.util.List<String> entries = new java.util.ArrayList<>();
        bridge.forEach(12 * SECOND, (mac, port, age, isStatic) -> entries.add(Long.toHexString(mac) + "@" + port + " " + age / SECOND + (isStatic ? " static" : "")));
        java.util.Collections.sort(entries);
        assertEquals(java.util.List.of(Long.toHexString(HOST_A) + "@7 0 static", Long.toHexString(hostC) + "@2 7"), entries,
            "host B, last seen 12 s ago, has aged out");
    }

    @Test
    void aFullTableLearnsNoNewAddressWhileItsOwnAreAliveAndFloodsToTheNewOne() {
        final LearningBridge bridge = new LearningBridge(10 * SECOND, 2, Map.of());
        final long hostC = 0x02_00_00_00_00_0cL;
        bridge.learn(HOST_A, 1, 0);
        bridge.learn(HOST_B, 2, 0);
        org.junit.jupiter.api.Assertions.assertFalse(bridge.learn(hostC, 3, SECOND), "the table is full");
        assertEquals(LearningBridge.FLOOD, bridge.lookup(hostC, SECOND));
        assertEquals(2, bridge.size());
        assertEquals(1, bridge.refused());
        assertEquals(1, bridge.lookup(HOST_A, SECOND), "what it had learned stays");
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(HOST_A, 4, SECOND), "a known address still moves, full or not");
        assertEquals(4, bridge.lookup(HOST_A, SECOND));
    }

    @Test
    void aFullTableForgetsItsAgedAddressesToLearnANewOneAtMostOnceASecond() {
        final LearningBridge bridge = new LearningBridge(10 * SECOND, 2, Map.of());
        final long hostC = 0x02_00_00_00_00_0cL;
        final long hostD = 0x02_00_00_00_00_0dL;
        bridge.learn(HOST_A, 1, 0);
        bridge.learn(HOST_B, 2, SECOND / 2);
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(hostC, 3, 10_200_000_000L), "host A aged out: its place is taken");
        assertEquals(LearningBridge.FLOOD, bridge.lookup(HOST_A, 10_200_000_000L));
        assertEquals(3, bridge.lookup(hostC, 10_200_000_000L));
        org.junit.jupiter.api.Assertions.assertFalse(bridge.learn(hostD, 4, 10_700_000_000L),
            "host B has aged out too, but the last look for aged addresses was half a second ago");
        org.junit.jupiter.api.Assertions.assertTrue(bridge.learn(hostD, 4, 11_200_000_000L));
        assertEquals(1, bridge.refused());
    }

    @Test
    void aHostSendingFromEverNewAddressesNeverGrowsTheTable() {
        final LearningBridge bridge = new LearningBridge(300 * SECOND, 1000, Map.of());
        for (long mac = 0x02_00_00_00_00_00L; mac < 0x02_00_00_01_00_00L; mac++) {
            bridge.learn(mac, 1, mac);
        }
        assertEquals(1000, bridge.size());
        assertEquals(65_536 - 1000, bridge.refused());
        assertThrows(IllegalArgumentException.class, () -> new LearningBridge(SECOND, 0, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new LearningBridge(SECOND, LearningBridge.MOST_ADDRESSES + 1, Map.of()));
    }
}
