package io.trimswitch.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Independent virtual-time runs side by side: results in submission order, a run's failure (an exception or an error) rethrown as itself. */
public final class ParallelRuns {
    private ParallelRuns() {
    }

    public static <T> List<T> all(final ExecutorService executor, final List<? extends Callable<T>> runs) {
        final List<Future<T>> futures = new ArrayList<>();
        for (final Callable<T> run : runs) {
            futures.add(executor.submit(run));
        }
        final List<T> results = new ArrayList<>();
        try {
            for (final Future<T> future : futures) {
                results.add(future.get());
            }
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            // An error (out of memory above all) stays itself, so the tool reports it in one line as on its own thread.
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            futures.forEach(future -> future.cancel(true));
        }
        return results;
    }
}
