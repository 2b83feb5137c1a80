package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EgressTransmitterTest {
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

    private EgressTransmitter transmitter(final boolean inOrder) {
        final EgressTransmitter.Departures to = (id, handle, time) -> departed.add(id + ":" + pool.length(handle) + "@" + time / NS);
        return inOrder ? EgressTransmitter.inOrder(port, to) : EgressTransmitter.late(port, to);
    }

    @Test
    void aBusyPortStartsEachPacketTheInstantTheOneBeforeEndedWhicheverWayItIsWoken() {
        for (final boolean inOrder : new boolean[] {true, false}) {
            departed.clear();
            port.reset();
            final EgressTransmitter transmitter = transmitter(inOrder);
            for (int i = 0; i < 3; i++) {
                queue(port.dataQueue(), 1500, 0);
            }
            // Virtual time looks as the packets are queued, a shard only a microsecond later: the same departures.
            transmitter.advanceTo(inOrder ? 0 : 1000 * NS);
            transmitter.advanceTo(1000 * NS);
            assertEquals(List.of("3:1500@120", "3:1500@240", "3:1500@360"), departed, inOrder ? "in order" : "late");
            assertEquals(Long.MAX_VALUE, transmitter.nextDue());
        }
    }

    @Test
    void aLateLookChoosesAmongThePacketsQueuedByTheInstantThePortCameFree() {
        final EgressTransmitter transmitter = transmitter(false);
        queue(port.dataQueue(), 1500, 0);
        queue(port.dataQueue(), 1500, 0);
        queue(port.headerQueue(), 64, 130 * NS);
        transmitter.advanceTo(1000 * NS);
        // The header came after the first packet ended, so the second data packet went first.
        assertEquals(List.of("3:1500@120", "3:1500@240", "3:64@245"), departed);
    }

    @Test
    void aPacketThatCannotEndByNowStaysInServiceAndIsTheNextThingDue() {
        final EgressTransmitter transmitter = transmitter(true);
        queue(port.dataQueue(), 1500, 0);
        assertEquals(0, transmitter.advanceTo(0));
        assertEquals(120 * NS, transmitter.nextDue());
        assertEquals(0, transmitter.advanceTo(119 * NS));
        assertEquals(1, transmitter.advanceTo(120 * NS));
        assertEquals(List.of("3:1500@120"), departed);
    }
}
