package io.trimswitch.realtime.shard;

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

        Recording(final String name) {
            this.name = name;
        }

        @Override
        public int receive() {
            seen.add(name + " receive");
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

    private final Recording sockets = new Recording("sockets");
    private final Recording interfaces = new Recording("interfaces");
    private final PortList list = new PortList(4, ShardSleep.parked()).add(sockets, 0, 1).add(interfaces, 2).tap(tap);

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
        assertEquals(List.of("sockets receive", "interfaces receive", "sockets flush", "interfaces flush"), seen);
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
        assertThrows(IllegalArgumentException.class, () -> list.assign(3, new Recording("stranger")), "a kind the shard does not hold");
    }

    @Test
    void portsInMemoryHaveNoFileDescriptorToSleepOn() {
        final PortKind withDescriptor = new Recording("af_xdp") {
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
