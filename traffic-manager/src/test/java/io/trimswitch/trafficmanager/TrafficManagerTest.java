package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrafficManagerTest {
    @Test
    void theDataQueueHoldsExactlyItsCapacityAndANonTrimmablePacketBeyondItIsDropped() {
        final TestSwitch sw = new TestSwitch(new DeflectOnDrop(2, 4, 100), false, 16, 1024);
        for (int i = 0; i < 16; i++) {
            sw.tm.enqueueData(sw.packet(5, 0, 0), 0);
        }
        sw.tm.enqueueData(sw.packet(5, 0, 0), 0);

        assertEquals(16, sw.tm.port(0).dataQueue().size());
        assertEquals(1, sw.drops(DropReason.DATA_QUEUE_FULL));
        assertEquals(1, sw.tm.port(0).counters().drops(DropReason.DATA_QUEUE_FULL));
        assertTrue(sw.recirculationWakeups.isEmpty(), "only trimmable packets are deflected");
    }

    @Test
    void aTrimmablePacketMeetingAFullDataQueueIsDeflectedWholeToItsIngressPipelinesDodQueue() {
        final DeflectOnDrop dod = new DeflectOnDrop(2, 4, 100);
        final TestSwitch sw = new TestSwitch(dod, false, 16, 1024);
        for (int i = 0; i < 16; i++) {
            sw.tm.enqueueData(sw.trimmable(1, 0), 0);
        }
        final int deflected = sw.trimmable(6, 0);
        sw.tm.enqueueData(deflected, 0);

        assertEquals(1, dod.recirculationQueue(1).size(), "port 6 is on pipeline 1");
        assertEquals(0, dod.recirculationQueue(0).size());
        assertEquals(1500, sw.pool.length(deflected), "deflected whole");
        assertEquals(TrimKind.NONE, sw.pool.trimKind(deflected));
        assertEquals(1, dod.deflections(1));
        assertEquals(java.util.List.of(1), sw.recirculationWakeups);
    }

    @Test
    void aFullDodQueueIsARealCountedLoss() {
        final DeflectOnDrop dod = new DeflectOnDrop(2, 4, 3);
        final TestSwitch sw = new TestSwitch(dod, false, 1, 1024);
        for (int i = 0; i < 5; i++) {
            sw.tm.enqueueData(sw.trimmable(2, 3), 0);
        }
        assertEquals(1, sw.tm.port(3).dataQueue().size());
        assertEquals(3, dod.recirculationQueue(0).size());
        assertEquals(1, sw.drops(DropReason.DOD_OVERFLOW));
        assertEquals(1, dod.recirculationQueue(0).rejected());
        assertEquals(4, dod.deflections(0));
    }

    @Test
    void theIdealSwitchTrimsAtEnqueueKeepingTheDataQueueFullAndSendingOneHeader() {
        final TestSwitch sw = new TestSwitch(new IdealTrimming(1), false, 4, 1024);
        for (int i = 0; i < 4 + 100; i++) {
            sw.tm.enqueueData(sw.trimmable(1, 2), 0);
        }
        final EgressPort port = sw.tm.port(2);
        assertEquals(4, port.dataQueue().size());
        assertEquals(100, port.headerQueue().size());
        assertEquals(100, port.counters().trimPackets(TrimKind.IDEAL));
        for (int i = 0; i < 100; i++) {
            final int header = port.headerQueue().poll();
            assertEquals(64, sw.pool.length(header));
            assertEquals(TrimKind.IDEAL, sw.pool.trimKind(header));
        }
    }

    @Test
    void theIdealSwitchTrimsTheTailPacketAboutHalfTheTime() {
        final TestSwitch sw = new TestSwitch(new IdealTrimming(42), false, 1, 4096);
        sw.tm.enqueueData(sw.trimmable(1, 2), 0);
        int tailTrimmed = 0;
        for (int i = 0; i < 2000; i++) {
            final int queuedBefore = sw.tm.port(2).dataQueue().peek();
            final int arriving = sw.trimmable(1, 2);
            sw.tm.enqueueData(arriving, 0);
            final int header = sw.tm.port(2).headerQueue().poll();
            if (header == queuedBefore) {
                tailTrimmed++;
                assertEquals(arriving, sw.tm.port(2).dataQueue().peek(), "the arriving packet takes the trimmed one's place");
            } else {
                assertEquals(arriving, header);
            }
            sw.pool.free(header);
        }
        assertEquals(1000, tailTrimmed, 100);
    }

    @Test
    void mirrorOnDropQueuesATrimmedHeaderInTheIngressPipelinesMirrorQueue() {
        final MirrorOnDrop mirror = new MirrorOnDrop(2, 4, 10);
        final TestSwitch sw = new TestSwitch(mirror, false, 1, 1024);
        sw.tm.enqueueData(sw.trimmable(5, 1), 0);
        final int mirrored = sw.trimmable(5, 1);
        sw.tm.enqueueData(mirrored, 0);

        assertEquals(mirrored, mirror.recirculationQueue(1).peek());
        assertEquals(64, sw.pool.length(mirrored));
        assertEquals(TrimKind.MIRROR, sw.pool.trimKind(mirrored));
        assertEquals(1, sw.tm.port(1).counters().trimPackets(TrimKind.MIRROR));
    }

    @Test
    void aHeaderMeetingAFullHeaderQueueIsDroppedAndCountedAsATrimDrop() {
        final TestSwitch sw = new TestSwitch(new IdealTrimming(1), false, 1, 2);
        for (int i = 0; i < 4; i++) {
            sw.tm.enqueueData(sw.trimmable(4, 0), 0);
        }
        assertEquals(2, sw.tm.port(0).headerQueue().size());
        assertEquals(1, sw.drops(DropReason.HEADER_QUEUE_FULL));
        assertEquals(1, sw.tm.port(0).counters().droppedTrimPackets());
    }

    @Test
    void withReturnToSenderAHeaderMeetingAFullHeaderQueueGoesBackOutOfItsIngressPortWithAddressesSwapped() {
        final TestSwitch sw = new TestSwitch(new IdealTrimming(1), true, 1, 1);
        for (int i = 0; i < 3; i++) {
            sw.tm.enqueueData(sw.trimmable(4, 0), 0);
        }
        final int returned = sw.tm.port(4).headerQueue().peek();
        assertTrue(sw.pool.returnedToSender(returned));
        assertEquals(4, sw.pool.egressPort(returned));
        final int frame = sw.pool.offset(returned);
        assertEquals(EthernetHeader.hostMac(4), EthernetHeader.destination(sw.pool.buffer(returned), frame));
        assertEquals(Ipv4Header.portAddress(4, 1), Ipv4Header.destination(sw.pool.buffer(returned), frame + EthernetHeader.LENGTH));
        assertTrue(Ipv4Header.checksumValid(sw.pool.buffer(returned), frame + EthernetHeader.LENGTH));
        assertEquals(0, sw.drops(DropReason.HEADER_QUEUE_FULL));
    }

    @Test
    void anIdlePortIsWokenOnceWhenAPacketArrives() {
        final TestSwitch sw = new TestSwitch(new IdealTrimming(1), false, 16, 16);
        sw.tm.enqueueData(sw.trimmable(1, 3), 0);
        assertEquals(java.util.List.of(3), sw.egressWakeups);
    }
}
