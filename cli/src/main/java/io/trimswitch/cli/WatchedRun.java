package io.trimswitch.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * A long virtual-time run, watched from a thread of its own: once it has gone on for a few seconds, a progress line on
 * standard error, drawn over itself (where the tool runs on a terminal, as {@code evaluate}'s), and on Ctrl-C one line
 * that says what stopped, how far it had come and that nothing was written. The run's counters are read as they stand,
 * for display: flows complete in no order the line could forecast, so it shows no bar and no time left.
 */
final class WatchedRun implements AutoCloseable {
    /** A run shorter than this shows no progress. */
    static final long PROGRESS_AFTER_MS = 3000;
    private static final int REDRAW_MS = 500;

    private final String task;
    private final IntSupplier completed;
    private final int flows;
    private final LongSupplier virtualPicos;
    private final PrintWriter err;
    private final Thread interrupted = new Thread(this::interrupted, "interrupted");
    private final Thread watcher;
    private volatile boolean running = true;
    private volatile boolean drawn;
    private volatile boolean stopped;

    private WatchedRun(final String task, final IntSupplier completed, final int flows, final LongSupplier virtualPicos, final PrintWriter err,
        final long progressAfterMs) {
        this.task = task;
        this.completed = completed;
        this.flows = flows;
        this.virtualPicos = virtualPicos;
        this.err = err;
        this.watcher = progressAfterMs < 0 ? null : Thread.ofPlatform().daemon().name("progress").unstarted(() -> draw(progressAfterMs));
    }

    /**
     * Watches a run of {@code flows} flows, of which {@code completed} are done and whose clock stands at
     * {@code virtualPicos}; a progress line after {@code progressAfterMs}, none where it is negative.
     */
    static WatchedRun start(final String task, final IntSupplier completed, final int flows, final LongSupplier virtualPicos, final PrintWriter err,
        final long progressAfterMs) {
        final WatchedRun run = new WatchedRun(task, completed, flows, virtualPicos, err, progressAfterMs);
        Runtime.getRuntime().addShutdownHook(run.interrupted);
        if (run.watcher != null) {
            run.watcher.start();
        }
        return run;
    }

    /** As {@code evaluate} does: a progress line where the tool runs on a terminal. */
    static long progressAfterOnATerminal() {
        return System.console() != null ? PROGRESS_AFTER_MS : -1;
    }

    /** The run ended: no more progress, and an interruption from now on is no longer this run's. */
    @Override
    public void close() {
        synchronized (err) {
            running = false;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(interrupted);
        } catch (final IllegalStateException e) {
            // The JVM is already stopping: the hook says so.
        }
        if (watcher != null) {
            watcher.interrupt();
            try {
                watcher.join();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How far the run came, in words: "12 of 64 flows completed, 1.5 ms of virtual time". */
    String reached() {
        return String.format(Locale.ROOT, "%d of %d flows completed, %.1f µs of virtual time", completed.getAsInt(), flows,
            virtualPicos.getAsLong() / 1e6);
    }

    private void draw(final long afterMs) {
        final long start = System.nanoTime();
        try {
            Thread.sleep(afterMs);
            while (true) {
                final long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                synchronized (err) {
                    if (!running) {
                        break;
                    }
                    // Drawn over itself: the carriage return goes back to the line's start, the spaces clear a longer one.
                    err.print(String.format(Locale.ROOT, "\r%s: %s, %d:%02d   ", task, reached(), seconds / 60, seconds % 60));
                    err.flush();
                    drawn = true;
                }
                Thread.sleep(REDRAW_MS);
            }
        } catch (final InterruptedException e) {
            // The run ended.
        }
        synchronized (err) {
            if (drawn && !stopped) {
                err.println();
            }
        }
    }

    /** Ctrl-C (or another signal that stops the JVM) while the run went on: one line, after the progress line if drawn. */
    private void interrupted() {
        synchronized (err) {
            if (!running) {
                return;
            }
            running = false;
            stopped = true;
            err.println((drawn ? "\n" : "") + "trimswitch: interrupted: the " + task + " run stopped at " + reached() + "; nothing was written");
            err.flush();
        }
    }
}
