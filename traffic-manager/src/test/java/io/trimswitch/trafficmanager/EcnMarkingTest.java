package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A port that marks ECN at its data queue: CE on ECN-capable packets by the queue's depth as each leaves. */
class EcnMarkingTest {
    private static final int BYTES = 1000;
    private final PacketPool pool = new PacketPool(2048);

    private int packet(final int ecn) {
        final int handle = pool.allocate();
        WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), 64, 0, 1, 0, 0, 10, 666);
        final int ip = pool.offset(handle) + EthernetHeader.LENGTH;
        Ipv4Header.rewriteTosAndLength(pool.buffer(handle), ip, Ipv4Header.tos(pool.buffer(handle), ip) | ecn, Ipv4Header.totalLength(pool.buffer(handle), ip));
        pool.length(handle, BYTES);
        pool.classification(handle, PacketClass.IPV4);
        return handle;
    }

    private int ecnOf(final int handle) {
        return Ipv4Header.tos(pool.buffer(handle), pool.offset(handle) + EthernetHeader.LENGTH) & 0b11;
    }

    /** Sends {@code count} packets of {@code ecn} through a port with the queue full of them; returns how many left marked. */
    private int markedOf(final EgressPort port, final int count, final int ecn) {
        for (int i = 0; i < count; i++) {
            port.dataQueue().offer(packet(ecn));
        }
        int marked = 0;
        long now = 0;
        while (port.hasWaiting()) {
            now = port.startTransmission(now);
            final int handle = port.finishTransmission();
            marked += ecnOf(handle) == 0b11 ? 1 : 0;
            assertTrue(Ipv4Header.checksumValid(pool.buffer(handle), pool.offset(handle) + EthernetHeader.LENGTH), "the checksum follows the mark");
            pool.free(handle);
        }
        return marked;
    }

    @Test
    void aQueueDeeperThanItsThresholdMarksEveryCapablePacketAndNoOther() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 64, 16, 10);
        port.ecnMarking(new EcnMarking(20L * BYTES, 20L * BYTES, 1));
        // 40 packets leave with 39, 38, ... 0 behind them: the 19 that leave more than 20 behind are marked.
        assertEquals(19, markedOf(port, 40, 0b10));
        assertEquals(0, markedOf(port, 20, 0b10));
        assertEquals(0, markedOf(port, 40, 0b00), "a packet that is not ECN-capable is never marked");
        assertEquals(19, port.ecnMarking().marked());
    }

    @Test
    void betweenTheThresholdsTheOddsRiseAndTheCoinRepeatsAfterAReset() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 1024, 16, 10);
        port.ecnMarking(new EcnMarking(0, 1000L * BYTES, 7));
        final int first = markedOf(port, 1000, 0b01);
        // Depths 999 down to 0 of 1000: about half are marked.
        assertTrue(first > 400 && first < 600, first + " marked");
        assertEquals(first, port.ecnMarking().marked());
        port.reset();
        assertEquals(first, markedOf(port, 1000, 0b01), "the same coin after a reset");
    }

    @Test
    void withoutMarkingAPortLeavesEcnAlone() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 64, 16, 10);
        assertEquals(0, markedOf(port, 40, 0b10));
    }
}
