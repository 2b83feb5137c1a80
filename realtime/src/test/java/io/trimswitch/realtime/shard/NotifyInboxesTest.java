package io.trimswitch.realtime.shard;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NotifyInboxesTest {
    @Test
    void aNotifyReachesOnlyThePipelineItIsSentToWithItsPortAndDueTime() {
        final NotifyInboxes inboxes = new NotifyInboxes(2);
        final NotifyInboxes.Reader zero = inboxes.reader(0);
        final NotifyInboxes.Reader one = inboxes.reader(1);
        inboxes.send(5, 1, 24_000_000L);
        inboxes.send(6, 1, 25_000_000L);
        assertEquals(0, zero.drain());
        assertEquals(2, one.drain());
        assertEquals(24_000_000L, one.pending().headTime());
        assertEquals(5, one.pending().removeHead());
        assertEquals(6, one.pending().removeHead());
        assertTrue(one.pending().isEmpty());
    }

    @Test
    void notifiesFromSeveralThreadsAllArriveAndEachThreadsInItsOwnOrder() throws InterruptedException {
        final NotifyInboxes inboxes = new NotifyInboxes(1);
        final NotifyInboxes.Reader reader = inboxes.reader(0);
        // 20 000 NOTIFYs of 32 bytes fit the 1 MiB inbox without a reader.
        final int perThread = 10_000;
        final CountDownLatch go = new CountDownLatch(1);
        final Thread[] senders = new Thread[2];
        for (int t = 0; t < senders.length; t++) {
            final int port = t;
            senders[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (final InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    inboxes.send(port, 0, i);
                }
            });
            senders[t].start();
        }
        go.countDown();
        for (final Thread sender : senders) {
            sender.join();
        }
        reader.drain();
        final long[] lastDue = {-1, -1};
        int received = 0;
        while (!reader.pending().isEmpty()) {
            final long due = reader.pending().headTime();
            final int port = reader.pending().removeHead();
            assertEquals(lastDue[port] + 1, due, "thread " + port + "'s NOTIFYs in the order it sent them");
            lastDue[port] = due;
            received++;
        }
        assertEquals(2 * perThread, received + inboxes.lost(), "every NOTIFY arrives or is counted as lost");
        assertEquals(0, inboxes.lost(), "none was lost");
    }
}
