package io.trimswitch.live.link;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The lines the shards tell of their ports' links ({@code port 2 (sw-p2): down}), written out by a thread of its own:
 * a shard only queues a line, so an output nobody reads (a full pipe) never holds up forwarding. Lines that find the
 * queue full are counted, and the count is written once there is room.
 */
final class LinkLog implements Consumer<String>, AutoCloseable {
    /** Lines held while the output is slow: far more than a lab's links change at once. */
    static final int BACKLOG = 1024;

    private final ArrayBlockingQueue<String> lines = new ArrayBlockingQueue<>(BACKLOG);
    private final AtomicLong lost = new AtomicLong();
    private final Thread writer;
    private final Consumer<String> output;

    LinkLog(final Consumer<String> output) {
        this.output = output;
        this.writer = new Thread(this::write, "trimswitch-link-log");
        writer.setDaemon(true);
        writer.start();
    }

    /** From any thread, never waiting. */
    @Override
    public void accept(final String line) {
        if (!lines.offer(line)) {
            lost.incrementAndGet();
        }
    }

    private void write() {
        try {
            while (true) {
                final String line = lines.take();
                output.accept(line);
                final long missed = lost.getAndSet(0);
                if (missed > 0) {
                    output.accept(missed + " more link lines were lost: the output was not read");
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what is queued, waiting at most a moment for a slow output, and ends the writer. */
    @Override
    public void close() {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (!lines.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        writer.interrupt();
    }
}
