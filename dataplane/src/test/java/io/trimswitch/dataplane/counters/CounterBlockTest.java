package io.trimswitch.dataplane.counters;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CounterBlockTest {
    /** {@code count} counters of port 0 in a registry of their own. */
    private static CounterBlock block(final int count) {
        final List<CounterName> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(new CounterName(CounterType.DROPS, 0, i, "reason" + i));
        }
        return CounterRegistry.inMemory(count).block("test", names);
    }

    @Test
    void eachCounterKeepsItsOwnCount() {
        final CounterBlock block = block(3);
        block.increment(0);
        block.add(1, 1500);
        block.add(1, 64);
        assertEquals(1, block.get(0));
        assertEquals(1564, block.get(1));
        assertEquals(0, block.get(2));
        block.reset();
        assertEquals(0, block.get(1));
    }

    @Test
    void aCounterOutsideTheBlockIsRefusedAndWritesNothing() {
        final CounterBlock block = block(2);
        assertEquals("counter 2 of a block of 2",
            assertThrows(IndexOutOfBoundsException.class, () -> block.increment(2)).getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> block.add(-1, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> block.get(2));
        assertEquals(0, block.get(0));
        assertEquals(0, block.get(1));
    }

    @Test
    void aBlockHasAtLeastOneCounter() {
        assertThrows(IllegalArgumentException.class, () -> CounterRegistry.inMemory(1).block("test", List.of()));
    }
}
