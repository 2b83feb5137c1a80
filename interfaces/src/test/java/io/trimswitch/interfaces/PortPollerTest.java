package io.trimswitch.interfaces;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shard's poller, its ports added by another thread (the control thread's {@code ctl add-port}, a starting switch's
 * UDP sockets) while the shard's thread sleeps in it.
 */
class PortPollerTest {
    @Test
    void aDescriptorAddedByAnotherThreadWhileTheSleeperWaitsWakesItOnceItHasData() throws Exception {
        try (Arena arena = Arena.ofShared(); PortPoller poller = new PortPoller()) {
            final LinuxCalls calls = new LinuxCalls(arena);
            final int port = calls.eventFd();
            assertTrue(port >= 0, "an eventfd stands for a port");
            final CountDownLatch asleep = new CountDownLatch(1);
            final CountDownLatch woke = new CountDownLatch(1);
            final Thread sleeper = new Thread(() -> {
                asleep.countDown();
                poller.await(PortPoller.FOREVER);
                woke.countDown();
            }, "sleeper");
            sleeper.start();
            asleep.await();
            poller.add(port);
            assertEquals(1, woke.getCount(), "a descriptor with nothing to read does not wake the sleeper");
            final MemorySegment one = arena.allocate(8, 8);
            one.set(ValueLayout.JAVA_LONG, 0, 1L);
            assertEquals(8, calls.write(port, one.address(), 8));
            assertTrue(woke.await(5, TimeUnit.SECONDS), "data on the added descriptor ends the wait");
            sleeper.join();
            LinuxCalls.close(port);
        }
    }

    @Test
    void aDescriptorThatCannotBeWatchedIsRefusedWithTheKernelsReason() {
        try (PortPoller poller = new PortPoller()) {
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> poller.add(1 << 20));
            assertEquals("cannot watch fd 1048576: Bad file descriptor", refused.getMessage());
        }
    }
}
