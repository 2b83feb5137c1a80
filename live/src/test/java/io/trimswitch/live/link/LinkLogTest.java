package io.trimswitch.live.link;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinkLogTest {
    @Test
    void aShardNeverWaitsOnAnOutputNobodyReadsAndTheLinesLostMeanwhileAreCounted() throws InterruptedException {
        final CountDownLatch unblocked = new CountDownLatch(1);
        final List<String> written = new CopyOnWriteArrayList<>();
        final LinkLog log = new LinkLog(line -> {
            try {
                // The first write blocks, as one into a full pipe does.
                unblocked.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            written.add(line);
        });
        final int lines = LinkLog.BACKLOG + 100;
        final long start = System.nanoTime();
        for (int i = 0; i < lines; i++) {
            log.accept("port 0 (lk0): down " + i);
        }
        final long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis < 1_000, "queuing the lines took " + tookMillis + " ms");
        unblocked.countDown();
        // Every line is either written or counted as lost, once the output takes them again.
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (accounted(written) < lines && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(lines, accounted(written), written.size() + " lines written");
        assertTrue(written.stream().anyMatch(line -> line.endsWith("more link lines were lost: the output was not read")), "the loss is told");
        assertEquals("port 0 (lk0): down 0", written.get(0));
        log.close();
    }

    private static long accounted(final List<String> written) {
        long lines = 0;
        for (final String line : written) {
            lines += line.startsWith("port 0") ? 1 : Long.parseLong(line.substring(0, line.indexOf(' ')));
        }
        return lines;
    }
}
