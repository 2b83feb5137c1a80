package io.trimswitch.switching;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CatchUpTest {
    /** A stage that writes down, in one shared log, its name and each time it was brought up to. */
    private static CatchUp.Stage recording(final String name, final List<String> log, final int work) {
        return time -> {
            log.add(name + "@" + time);
            return work;
        };
    }

    @Test
    void everyRecirculationPortIsBroughtUpBeforeAnyEgressPortSoAReturningHeaderIsQueuedWhenEgressChooses() {
        final List<String> log = new ArrayList<>();
        final CatchUp catchUp = new CatchUp(
            List.of(recording("recirculation0", log, 0), recording("recirculation1", log, 0)),
            List.of(recording("egress0", log, 0), recording("egress1", log, 0)));
        catchUp.advanceTo(500);
        assertEquals(List.of("recirculation0@500", "recirculation1@500", "egress0@500", "egress1@500"), log);
    }

    @Test
    void theWorkDoneIsWhatEveryPartDidTogether() {
        final List<String> log = new ArrayList<>();
        final CatchUp catchUp = new CatchUp(List.of(recording("recirculation", log, 2)), List.of(recording("egress", log, 3), recording("egress", log, 4)));
        assertEquals(9, catchUp.advanceTo(1));
    }

    @Test
    void aPacketFromOutsideComesBeforeATransmissionEndingAtItsInstant() {
        assertEquals(999, CatchUp.horizon(1_000, true));
    }

    @Test
    void aPacketFromWithinTheSwitchComesAfterEverythingDueAtItsInstant() {
        assertEquals(1_000, CatchUp.horizon(1_000, false));
    }
}
