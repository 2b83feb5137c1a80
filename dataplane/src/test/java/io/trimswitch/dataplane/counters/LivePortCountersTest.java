package io.trimswitch.dataplane.counters;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LivePortCountersTest {
    @Test
    void eachCounterIsFoundByItsNameAndReadersSeeItUnderThatName() {
        final CounterRegistry registry = CounterRegistry.inMemory(16);
        final LivePortCounters counters = new LivePortCounters(registry, "shard-0", 3, List.of(CounterType.RX_DATAGRAMS, CounterType.LINK_UP),
            List.of(DropReason.TOO_SHORT, DropReason.LINK_DOWN));
        counters.increment(CounterType.RX_DATAGRAMS);
        counters.set(CounterType.LINK_UP, 1);
        counters.drop(DropReason.LINK_DOWN);
        counters.drop(DropReason.LINK_DOWN, 2);
        final CounterTotals totals = CounterTotals.read(registry.reader());
        assertEquals(1, totals.get(3, CounterType.RX_DATAGRAMS));
        assertEquals(1, totals.get(3, CounterType.LINK_UP));
        assertEquals(3L, totals.byName(3, CounterType.DROPS).get("linkDown"));
        assertEquals(0L, totals.byName(3, CounterType.DROPS).get("tooShort"));
        assertEquals(3, counters.dropped(DropReason.LINK_DOWN));
    }

    @Test
    void countingWhatWasNotRegisteredSaysWhichCounterIsMissing() {
        final LivePortCounters counters = new LivePortCounters(CounterRegistry.inMemory(4), "shard-0", 1, List.of(CounterType.RX_DATAGRAMS),
            List.of(DropReason.TOO_SHORT));
        final IllegalArgumentException drop = assertThrows(IllegalArgumentException.class, () -> counters.drop(DropReason.RING_OVERFLOW));
        assertTrue(drop.getMessage().contains("ringOverflow"), drop.getMessage());
        assertThrows(IllegalArgumentException.class, () -> counters.increment(CounterType.TX_FRAMES));
    }

    @Test
    void everyReasonHasItsOwnLabelAndIndex() {
        assertEquals(DropReason.values().length, java.util.Arrays.stream(DropReason.values()).map(DropReason::label).distinct().count());
        assertEquals(new CounterName(CounterType.DROPS, 5, DropReason.RX_OVERFLOW.ordinal(), "rxOverflow"), DropReason.RX_OVERFLOW.at(5));
    }
}
