package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shard's list of port kinds: each packet that left a port goes to the tap, then to the kind of its port; every kind
 * receives and flushes once a turn; egress waits for the kind that is furthest behind.
 */
class PortListTest {
    private final List<String> seen = new ArrayList<>();

    /** A kind that says what it was asked, and has received up to {@code horizon}. */
    private class Recording implements PortKind {
        private final String name;
        long horizon = Long.MAX_VALUE;
        boolean unsent;
        /** The port its frame comes in on each turn, and its buffer. */
        private final int port;

        Recording(final String name, final int port) {
            this.name = name;
            this.port = port;
        }

        @Override
        public int receive(final Burst burst) {
            seen.add(name + " receive, room " + burst.room());
            burst.add(port, 10 + port);
            return 1;
        }

        @Override
        public void send(final int port, final int handle, final long time) {
            seen.add(name + " send " + port + " " + handle + " " + time);
        }

        @Override
        public void flush() {
            seen.add(name + " flush");
        }

        @Override
        public boolean hasUnsent() {
            return unsent;
        }

        @Override
        public long horizon(final long now) {
            return Math.min(horizon, now);
        }
    }

    private final PortTap tap = new PortTap() {
        @Override
        public void received(final int port, final long time, final DirectBuffer buffer, final int offset, final int length) {
            seen.add("tap received " + port);
        }

        @Override
        public void departed(final int port, final int handle, final long time) {
            seen.add("tap departed " + port + " " + handle);
        }
    };

    private final Recording sockets = new Recording("sockets", 0);
    private final Recording interfaces = new Recording("interfaces", 2);
    private final PortList list = new PortList(4, ShardSleep.parked()).add(sockets, 0, 1).add(interfaces, 2).tap(tap)
        .ingress(burst -> {
            for (int i = 0; i < burst.size(); i++) {
                seen.add("ingress admits port " + burst.port(i) + " buffer " + burst.handle(i));
            }
        });

    @Test
    void aPacketThatLeftAPortIsSeenByTheTapThenSentByItsPortsKind() {
        list.departed(1, 7, 5_000);
        list.departed(2, 8, 6_000);
        assertEquals(List.of("tap departed 1 7", "sockets send 1 7 5000", "tap departed 2 8", "interfaces send 2 8 6000"), seen);
    }

    @Test
    void everyKindReceivesAndFlushesOnceATurn() {
        assertEquals(2, list.receive());
        list.flush();
        assertEquals(List.of("sockets receive, room 1024", "ingress admits port 0 buffer 10", "interfaces receive, room 1024",
            "ingress admits port 2 buffer 12", "sockets flush", "interfaces flush"), seen);
    }

    @Test
    void aShardWithNoWayInRefusesABurstRatherThanLoseIt() {
        final PortList noIngress = new PortList(4, ShardSleep.parked()).add(sockets, 0);
        final IllegalStateException refused = assertThrows(IllegalStateException.class, noIngress::receive);
        assertEquals("a port kind received 1 frames on a shard with no way in", refused.getMessage());
    }

    @Test
    void egressWaitsForTheKindFurthestBehind() {
        assertEquals(1_000, list.horizon(1_000));
        interfaces.horizon = 400;
        assertEquals(400, list.horizon(1_000));
        assertEquals(1_000, new PortList(4, ShardSleep.parked()).horizon(1_000), "no kinds: nothing can still arrive before now");
    }

    @Test
    void aShardKeepsPollingWhileAnyKindHasFramesNotYetSent() {
        assertFalse(list.hasUnsent());
        interfaces.unsent = true;
        assertTrue(list.hasUnsent());
    }

    @Test
    void aPortGivenWhileTheSwitchRunsSendsByTheKindItIsAssignedTo() {
        list.assign(3, interfaces);
        list.departed(3, 9, 1);
        assertEquals("interfaces send 3 9 1", seen.get(1));
        assertThrows(IllegalArgumentException.class, () -> list.assign(3, new Recording("stranger", 3)), "a kind the shard does not hold");
    }

    @Test
    void portsInMemoryHaveNoFileDescriptorToSleepOn() {
        final PortKind withDescriptor = new Recording("af_xdp", 0) {
            @Override
            public void watchFileDescriptors(final FileDescriptorWatch watch) {
                watch.add(42, false);
            }
        };
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> new PortList(1, ShardSleep.parked()).add(withDescriptor));
        assertEquals("ports in memory sleep on no file descriptor, got fd 42", refused.getMessage());
    }
}
