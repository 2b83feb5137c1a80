package io.trimswitch.pipelines;

import org.junit.jupiter.api.Test;

import static io.trimswitch.pipelines.TrimState.HALFTIMISTIC;
import static io.trimswitch.pipelines.TrimState.OPTIMISTIC;
import static io.trimswitch.pipelines.TrimState.PESSIMISTIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TrimStateTableTest {
    private static final long US = 1_000_000;

    @Test
    void aPortIsOptimisticUntilTheFirstNotify() {
        final TrimStateTable table = new TrimStateTable(4, 6 * US, 24 * US);
        assertEquals(OPTIMISTIC, table.state(2, 0));
        assertEquals(OPTIMISTIC, table.state(2, 100 * US));
    }

    @Test
    void aNotifyMakesThePortPessimisticForT0ThenHalftimisticUntilT1ThenOptimistic() {
        final TrimStateTable table = new TrimStateTable(4, 6 * US, 24 * US);
        table.onNotify(1, 10 * US);
        assertEquals(PESSIMISTIC, table.state(1, 10 * US));
        assertEquals(PESSIMISTIC, table.state(1, 16 * US));
        assertEquals(HALFTIMISTIC, table.state(1, 16 * US + 1));
        assertEquals(HALFTIMISTIC, table.state(1, 34 * US));
        assertEquals(OPTIMISTIC, table.state(1, 34 * US + 1));
        assertEquals(OPTIMISTIC, table.state(3, 12 * US), "other ports are untouched");
    }

    @Test
    void aNewNotifyWhileHalftimisticMakesThePortPessimisticAgain() {
        final TrimStateTable table = new TrimStateTable(1, 6 * US, 24 * US);
        table.onNotify(0, 0);
        assertEquals(HALFTIMISTIC, table.state(0, 20 * US));
        table.onNotify(0, 20 * US);
        assertEquals(PESSIMISTIC, table.state(0, 25 * US));
        assertEquals(HALFTIMISTIC, table.state(0, 43 * US));
        assertEquals(OPTIMISTIC, table.state(0, 45 * US));
    }

    @Test
    void withoutTheHalftimisticStateThePortGoesStraightBackToOptimistic() {
        final TrimStateTable table = new TrimStateTable(1, 6 * US, 6 * US);
        table.onNotify(0, 0);
        assertEquals(PESSIMISTIC, table.state(0, 6 * US));
        assertEquals(OPTIMISTIC, table.state(0, 6 * US + 1));
    }

    @Test
    void zeroDurationsMeanNoResponse() {
        final TrimStateTable table = new TrimStateTable(1, 0, 0);
        table.onNotify(0, 5 * US);
        assertEquals(OPTIMISTIC, table.state(0, 5 * US));
        assertEquals(1, table.notifications(0));
    }

    @Test
    void stateTimesCountOverlappingNotificationsOnceAndStopAtTheRunEnd() {
        final TrimStateTable table = new TrimStateTable(1, 6 * US, 24 * US);
        table.onNotify(0, 0);
        table.onNotify(0, 3 * US);
        // pessimistic [0, 9], congested [0, 27]
        assertEquals(9 * US, table.pessimisticTime(0, 100 * US));
        assertEquals(18 * US, table.halftimisticTime(0, 100 * US));
        table.onNotify(0, 95 * US);
        // pessimistic adds [95, 100] within a run that ends at 100
        assertEquals(14 * US, table.pessimisticTime(0, 100 * US));
        assertEquals(18 * US, table.halftimisticTime(0, 100 * US));
    }

    @Test
    void t1BelowT0IsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TrimStateTable(1, 6 * US, 5 * US));
    }

    @Test
    void theBacklogLoopHoldsALateNotifysPortPessimisticForAsLongAsTheNotifyWasLate() {
        final TrimStateTable backlog = new TrimStateTable(2, 6 * US, 24 * US, true);
        backlog.onNotify(0, 40 * US, 100 * US);
        assertEquals(TrimState.PESSIMISTIC, backlog.state(0, 139 * US), "pessimistic for the 40 µs the NOTIFY was late");
        assertEquals(TrimState.HALFTIMISTIC, backlog.state(0, 141 * US));
        assertEquals(TrimState.HALFTIMISTIC, backlog.state(0, 163 * US), "halftimistic until T1 + 40 µs");
        assertEquals(TrimState.OPTIMISTIC, backlog.state(0, 165 * US));
        backlog.onNotify(1, 40 * US, 100 * US);
        backlog.onNotify(1, 0, 101 * US);
        assertEquals(TrimState.PESSIMISTIC, backlog.state(1, 130 * US), "a fresher NOTIFY does not cut the stretched state short");
    }

    @Test
    void thePapersLoopIgnoresHowLateANotifyIs() {
        final TrimStateTable paper = new TrimStateTable(1, 6 * US, 24 * US);
        paper.onNotify(0, 40 * US, 100 * US);
        assertEquals(TrimState.HALFTIMISTIC, paper.state(0, 107 * US));
        assertEquals(TrimState.OPTIMISTIC, paper.state(0, 125 * US));
    }

    @Test
    void newTimingsApplyFromTheNextNotifyAndAStateAlreadySetRunsItsCourse() {
        final TrimStateTable table = new TrimStateTable(2, 6 * US, 24 * US);
        table.onNotify(0, 0);
        table.retime(2 * US, 4 * US);
        assertEquals(PESSIMISTIC, table.state(0, 6 * US), "set before the change: T0 = 6 us");
        table.onNotify(1, 100 * US);
        assertEquals(PESSIMISTIC, table.state(1, 102 * US));
        assertEquals(HALFTIMISTIC, table.state(1, 102 * US + 1));
        assertEquals(OPTIMISTIC, table.state(1, 104 * US + 1));
        assertThrows(IllegalArgumentException.class, () -> table.retime(5 * US, 4 * US), "T1 below T0");
    }
}
