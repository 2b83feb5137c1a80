package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EgressPortTimingTest {
    private static final long NS = 1_000;
    private final PacketPool pool = new PacketPool(64);
    private final EgressPort port = new EgressPort(3, LinkRate.gbps(100), pool, 16, 16, 10);
    private final List<String> departed = new ArrayList<>();

    private void queue(final HandleQueue queue, final int bytes, final long at) {
        final int handle = pool.allocate();
        pool.length(handle, bytes);
        pool.queuedPicos(handle, at);
        queue.offer(handle);
    }

    private final EgressPort.Departures to = (id, handle, time) -> departed.add(id + ":" + pool.length(handle) + "@" + time / NS);

    @Test
    void aBusyPortStartsEachPacketTheInstantTheOneBeforeEndedWhicheverWayItIsWoken() {
        for (final boolean inOrder : new boolean[] {true, false}) {
            departed.clear();
            port.reset();
            for (int i = 0; i < 3; i++) {
                queue(port.dataQueue(), 1500, 0);
            }
            // Virtual time looks as the packets are queued, a shard only a microsecond later: the same departures.
            port.advanceTo(inOrder ? 0 : 1000 * NS, inOrder, to);
            port.advanceTo(1000 * NS, inOrder, to);
            assertEquals(List.of("3:1500@120", "3:1500@240", "3:1500@360"), departed, inOrder ? "in order" : "late");
            assertEquals(Long.MAX_VALUE, port.nextDue());
        }
    }

    @Test
    void aLateLookChoosesAmongThePacketsQueuedByTheInstantThePortCameFree() {
        queue(port.dataQueue(), 1500, 0);
        queue(port.dataQueue(), 1500, 0);
        queue(port.headerQueue(), 64, 130 * NS);
        port.advanceTo(1000 * NS, false, to);
        // The header came after the first packet ended, so the second data packet went first.
        assertEquals(List.of("3:1500@120", "3:1500@240", "3:64@245"), departed);
    }

    @Test
    void aPacketThatCannotEndByNowStaysInServiceAndIsTheNextThingDue() {
        queue(port.dataQueue(), 1500, 0);
        assertEquals(0, port.advanceTo(0, true, to));
        assertEquals(120 * NS, port.nextDue());
        assertEquals(0, port.advanceTo(119 * NS, true, to));
        assertEquals(1, port.advanceTo(120 * NS, true, to));
        assertEquals(List.of("3:1500@120"), departed);
    }
}
