package io.trimswitch.network.htsim;

import io.trimswitch.network.topology.FatTree;
import io.trimswitch.config.ConfigException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** htsim's {@code .topo} files as csg-htsim and uet-htsim write them: every key read, every mistake refused in one line. */
class HtsimTopologyTest {
    /** A three-tier tree that uses every key: 4:1 oversubscribed racks, bundles of two between aggregation and core. */
    static final String THREE_TIERS = """
        # three tiers, every key
        Nodes 64
        Tiers 3
        Podsize 16

        Tier 0
        Downlink_speed_Gbps 100
        Radix_Down 8
        Radix_Up 2
        Oversubscribed 4
        Downlink_Latency_ns 1000
        Switch_Latency_ns 0
        Queue_Up 60000
        Queue_Down 60000

        Tier 1
        Downlink_speed_Gbps 100
        Radix_Down 2
        Radix_Up 4
        Oversubscribed 1
        Downlink_Latency_ns 1000
        Switch_Latency_ns 0
        Bundle 1
        Queue_Up 60000
        Queue_Down 60000

        Tier 2
        Downlink_speed_Gbps 100
        Radix_Down 4
        Downlink_Latency_ns 1000
        Switch_Latency_ns 0
        Bundle 2
        Queue_Down 60000
        """;

    static final String LEAF_SPINE = """
        nodes 32
        tiers 2
        podsize 32
        tier 0
        downlink_speed_gbps 100
        radix_down 8
        radix_up 4
        oversubscribed 2
        downlink_latency_ns 1000
        tier 1
        downlink_speed_gbps 100
        radix_down 4
        downlink_latency_ns 1000
        """;

    @Test
    void aThreeTierFileWithEveryKeyGivesHtsimsShape() {
        final HtsimTopology t = HtsimTopology.parse(THREE_TIERS, "tree.topo");
        assertEquals(64, t.nodes());
        assertEquals(3, t.tiers());
        assertEquals(new HtsimTopology.Tier(100, 8, 2, 1000, 0, 4, 1, 60_000, 60_000), t.tier()[0]);
        assertEquals(2, t.tier()[2].bundle());
        final FatTree.Shape shape = HtsimShape.of(t, (tier, key) -> 0);
        assertEquals(8, shape.tors(), "8 racks of 8 hosts");
        assertEquals(4, shape.pods());
        assertEquals(2, shape.aggPerPod(), "16 rack uplinks per pod over aggregation switches of 2 downlinks");
        assertEquals(4, shape.cores(), "16 aggregation uplinks over cores of 4 downlinks");
        assertEquals(2, shape.upLinksPerAgg(), "4 uplinks in bundles of 2");
        assertEquals(10, shape.ports(0), "8 hosts and 2 uplinks");
        assertEquals(4 * 2, shape.ports(shape.tors() + shape.aggs()), "a core's 4 pods, 2 links each");
    }

    @Test
    void aLeafSpineFileIsReadWhateverTheCaseOfItsKeys() {
        final FatTree.Shape shape = HtsimShape.of(HtsimTopology.parse(LEAF_SPINE, "ls.topo"), (tier, key) -> 0);
        assertEquals(4, shape.tors());
        assertEquals(4, shape.aggs(), "32 hosts / 2 oversubscribed = 16 uplinks over spines of 4 downlinks");
        assertEquals(0, shape.cores());
    }

    @Test
    void htsimsDefaultTreeIsTheKAryFatTreeOfTheNodes() {
        final FatTree.Shape shape = HtsimShape.of(HtsimTopology.defaultFor(128, 100, 1000, "m.cm"), (tier, key) -> 0);
        assertEquals(32, shape.tors());
        assertEquals(8, shape.pods());
        assertEquals(16, shape.cores());
        final ConfigException e = assertThrows(ConfigException.class, () -> HtsimTopology.defaultFor(100, 100, 1000, "m.cm"));
        assertEquals("m.cm: Nodes 100 is no k-ary fat tree's size (k³/4 hosts: 16, 54, 128, 250, 432, 686, 1024, ...); give a topology with --topology",
            e.getMessage());
    }

    @Test
    void aBadFileIsRefusedInOneLineNamingTheFileTheLineAndTheKey() {
        assertRefused("Radix_Down 8", "Radix_Down 7", "t.topo line 8: Radix_Down 7 of tier 0 does not divide Podsize 16");
        assertRefused("Queue_Up 60000\n", "Speed 5\n", "t.topo line 13: unknown key 'Speed' (Nodes, Tiers, Podsize, Tier; per tier "
            + "Downlink_speed_Gbps, Radix_Down, Radix_Up, Downlink_Latency_ns, Switch_Latency_ns, Oversubscribed, Bundle, Queue_Up, Queue_Down)");
        assertRefused("Podsize 16", "Podsize 24", "t.topo line 4: Podsize 24 does not divide Nodes 64");
        assertRefused("Radix_Up 2", "Radix_Up 3", "t.topo line 9: Radix_Down 8 / Radix_Up 3 of tier 0 does not match Oversubscribed 4");
        assertRefused("Bundle 2", "Bundle 3", "t.topo line 19: Radix_Up 4 of tier 1 is no multiple of tier 2's Bundle 3");
        assertRefused("Tiers 3", "Tiers 4", "t.topo line 3: Tiers takes a whole number from 2 to 3, got 4");
        assertRefused("Nodes 64", "Nodes -64", "t.topo line 2: Nodes takes a whole number from 1 to 65536, got -64");
        assertRefused("Oversubscribed 4", "Oversubscribed four", "t.topo line 10: Oversubscribed takes a number, got 'four'");
        assertRefused("Switch_Latency_ns 0\nQueue_Up", "Downlink_Latency_ns 5\nQueue_Up",
            "t.topo line 12: Downlink_Latency_ns is given twice for tier 0 (first on line 11)");
        assertRefused("Radix_Down 8", "Radix_Down", "t.topo line 8: Radix_Down takes one value, got 0");
        assertRefused("Radix_Down 2", "Radix_Down 3", "t.topo line 18: Radix_Down 3 of tier 1 does not divide the 16 rack uplinks of 4 pods evenly");
        assertRefused("Radix_Down 4\nDownlink_Latency_ns 1000\nSwitch_Latency_ns 0\nBundle 2",
            "Radix_Down 8\nDownlink_Latency_ns 1000\nSwitch_Latency_ns 0\nBundle 2",
            "t.topo line 19: Radix_Up 4 of tier 1 does not match 2 core switches over 2 aggregation switches per pod × tier 2's Bundle 2");
    }

    private static void assertRefused(final String was, final String now, final String message) {
        final String text = THREE_TIERS.replace("        ", "").replaceFirst(java.util.regex.Pattern.quote(was.replace("\\n", "\n")),
            java.util.regex.Matcher.quoteReplacement(now.replace("\\n", "\n")));
        final ConfigException e = assertThrows(ConfigException.class, () -> HtsimTopology.parse(text, "t.topo"), now);
        assertEquals(message, e.getMessage());
    }

    @Test
    void aMissingTierOrKeyIsNamed() {
        assertEquals("t.topo: Tier 2 is missing (Tiers 3)",
            assertThrows(ConfigException.class, () -> HtsimTopology.parse(THREE_TIERS.substring(0, THREE_TIERS.indexOf("Tier 2")), "t.topo")).getMessage());
        assertEquals("t.topo: Podsize is missing",
            assertThrows(ConfigException.class, () -> HtsimTopology.parse(LEAF_SPINE.replace("podsize 32\n", ""), "t.topo")).getMessage());
        assertEquals("t.topo line 13: Radix_Up of tier 1: the top tier has no uplinks",
            assertThrows(ConfigException.class, () -> HtsimTopology.parse(LEAF_SPINE.replace("radix_down 4", "radix_down 4\nradix_up 2"), "t.topo"))
                .getMessage());
    }
}
