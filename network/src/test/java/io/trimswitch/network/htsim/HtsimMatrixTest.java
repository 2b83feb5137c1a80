package io.trimswitch.network.htsim;

import io.trimswitch.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** htsim's connection matrices, .cm and uet-htsim's .tm: flows, triggers and failures read, mistakes refused in one line. */
class HtsimMatrixTest {
    static final String CONNECTIONS = """
        Nodes 16
        Connections 3
        0->5 id 1 start 0 size 2000000
        3->9 start 12.5 size 150000
        15->0 id 7 start 40 size 1
        """;

    /** Every word of uet-htsim's validation files: triggers of the three kinds, done-triggers, messages, priorities, a failure. */
    static final String TRIGGERED = """
        Nodes 16
        Connections 5
        Triggers 3
        Failures 1
        0->1 id 1 start 0 size 40000 send_done_trigger 1 prio 2
        2->3 id 2 trigger 1 size 40000 recv_done_trigger 2
        4->5 id 3 start 0 msg size 40000 recv_done_trigger 2
        6->7 id 4 trigger 2 size 40000 recv_done_trigger 3
        8->9 id 5 msg 3 trigger 3 size 40000
        trigger id 1 oneshot
        trigger id 2 barrier count 2
        trigger id 3 multishot
        failure switch_type AGG switch_id 1 link_id 0
        """;

    @Test
    void aConnectionMatrixGivesEachFlowItsEndsStartSizeAndId() {
        final HtsimMatrix m = HtsimMatrix.parse(CONNECTIONS, "p.cm");
        assertEquals(16, m.nodes());
        assertEquals(List.of(new HtsimMatrix.Connection(0, 5, 1, 0, 2_000_000, 0, 0, 0), new HtsimMatrix.Connection(3, 9, 0, 12.5, 150_000, 0, 0, 0),
            new HtsimMatrix.Connection(15, 0, 7, 40, 1, 0, 0, 0)), m.connections());
    }

    @Test
    void aTriggeredMatrixGivesItsTriggersAndFailures() {
        final HtsimMatrix m = HtsimMatrix.parse(TRIGGERED, "v.tm");
        assertEquals(5, m.connections().size());
        assertTrue(m.connections().get(1).triggered());
        assertTrue(Double.isNaN(m.connections().get(1).startUs()));
        assertEquals(1, m.connections().get(0).sendDoneTrigger());
        assertEquals(2, m.connections().get(2).recvDoneTrigger());
        assertEquals(List.of(new HtsimMatrix.Trigger(1, HtsimMatrix.TriggerKind.ONESHOT, 0), new HtsimMatrix.Trigger(2, HtsimMatrix.TriggerKind.BARRIER, 2),
            new HtsimMatrix.Trigger(3, HtsimMatrix.TriggerKind.MULTISHOT, 0)), m.triggers());
        assertEquals(List.of(new HtsimMatrix.Failure(1, 0)), m.failures());
    }

    @Test
    void aBadLineIsRefusedNamingTheFileTheLineAndTheWord() {
        assertRefused("0->5 id 1", "0->16 id 1", "m.cm line 3: the destination of 0->16 is 16, outside 0..15 (Nodes 16)");
        assertRefused("3->9", "-3->9", "m.cm line 4: the source of -3->9 is -3, outside 0..15 (Nodes 16)");
        assertRefused("size 150000", "size -150000", "m.cm line 4: size is -150000, outside 1..1099511627776");
        assertRefused("start 12.5", "begin 12.5", "m.cm line 4: unknown word 'begin' (id, start, size, trigger, send_done_trigger, recv_done_trigger, prio, msg)");
        assertRefused("start 12.5", "start -1", "m.cm line 4: start is -1, outside 0..1000000000 µs");
        assertRefused("id 7", "id 1", "m.cm line 5: id 1 is given to two flows (first on line 3)");
        assertRefused("15->0", "15->15", "m.cm line 5: 15->15 sends to itself");
        assertRefused("Connections 3", "Connections 4", "m.cm: Connections says 4 flows, the file has 3");
        assertRefused("Nodes 16", "Hosts 16", "m.cm line 1: unknown word 'Hosts' (Nodes, Connections, Triggers, Failures, SRC->DST ..., trigger ..., failure ...)");
        assertRefused(" size 1\\n", "\\n", "m.cm line 5: 15->0 has no size");
        assertRefused("start 40", "size 3", "m.cm line 5: 15->0 has neither a start nor a trigger");
        assertRefused("start 0 size 2000000", "start 0 trigger 4 size 2000000", "m.cm line 3: 0->5 has both a start and a trigger");
    }

    @Test
    void aBadTriggerOrFailureIsRefused() {
        assertEquals("v.tm line 11: barrier trigger 2 needs a count of at least 1", refused(TRIGGERED.replace("barrier count 2", "barrier"), "v.tm"));
        assertEquals("v.tm line 10: trigger 1 has no type: oneshot, multishot or barrier", refused(TRIGGERED.replace("1 oneshot", "1"), "v.tm"));
        assertEquals("v.tm: flow 2 (2->3) names trigger 2, which no 'trigger id 2' line describes",
            refused(TRIGGERED.replace("trigger id 2 barrier count 2\n", "").replace("Triggers 3", "Triggers 2"), "v.tm"));
        assertEquals("v.tm line 13: switch_type CORE: only an aggregation switch's uplink (AGG) can fail",
            refused(TRIGGERED.replace("AGG", "CORE"), "v.tm"));
        assertEquals("v.tm: Failures says 1, the file has 0", refused(TRIGGERED.replace("failure switch_type AGG switch_id 1 link_id 0\n", ""), "v.tm"));
    }

    private static void assertRefused(final String was, final String now, final String message) {
        assertEquals(message, refused(CONNECTIONS.replace(was.replace("\\n", "\n"), now.replace("\\n", "\n")), "m.cm"));
    }

    private static String refused(final String text, final String source) {
        return assertThrows(ConfigException.class, () -> HtsimMatrix.parse(text, source)).getMessage();
    }
}
