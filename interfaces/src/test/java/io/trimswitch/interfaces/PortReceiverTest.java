package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a port's receiver does with a frame the kernel wrote straight into a pool buffer (an AF_XDP UMEM frame): taken as
 * it is, with its stamp, or counted as too short and left to the caller to lend again.
 */
class PortReceiverTest {
    private static final int PORT = 3;
    private final PacketPool pool = PacketPool.withHeadroom(64, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH);
    private final LivePortCounters counters = new LivePortCounters(CounterRegistry.inMemory(64), "thread 0", PORT,
        List.of(CounterType.RX_DATAGRAMS, CounterType.RX_SEGMENTS), List.of(DropReason.TOO_SHORT, DropReason.OVERSIZE));
    private final PortReceiver receiver = new PortReceiver(PORT, counters, counters, pool, pool::allocate);
    private final Burst burst = new Burst();

    @Test
    void aFrameInAPoolBufferIsTakenAsItIsWithItsStamp() {
        final int handle = pool.allocate();
        OffloadHeader.clear(pool.buffer(handle), pool.offset(handle) - OffloadHeader.LENGTH);

        assertTrue(receiver.into(burst).onBuffer(handle, 60, 1234L));

        assertEquals(1, burst.size());
        assertEquals(handle, burst.handle(0), "no copy: the same buffer");
        assertEquals(PORT, burst.port(0));
        assertEquals(1234L, burst.receivedNanos(0));
        assertEquals(60, pool.length(handle));
        assertEquals(1, counters.get(CounterType.RX_DATAGRAMS));
        assertEquals(1, counters.get(CounterType.RX_SEGMENTS));
    }

    @Test
    void aFrameShorterThanAnEthernetHeaderIsCountedAndTheBufferStaysTheCallers() {
        final int handle = pool.allocate();

        assertFalse(receiver.into(burst).onBuffer(handle, 13, 1234L));

        assertEquals(0, burst.size(), "nothing goes up the pipeline");
        assertEquals(1, counters.dropped(DropReason.TOO_SHORT));
        assertEquals(1, counters.get(CounterType.RX_DATAGRAMS), "received, then dropped: the counter identity holds");
        assertEquals(1, pool.inUse(), "the caller lends it again; the receiver freed nothing");
    }
}
