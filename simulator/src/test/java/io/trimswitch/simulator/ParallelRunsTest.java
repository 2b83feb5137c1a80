package io.trimswitch.simulator;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ParallelRunsTest {
    @Test
    void resultsComeBackInTheOrderTheRunsWereGiven() {
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            assertEquals(List.of(1, 2, 3), ParallelRuns.all(pool, List.<Callable<Integer>>of(() -> 1, () -> 2, () -> 3)));
        }
    }

    @Test
    void aRunOutOfMemoryIsRethrownAsItselfNotWrappedInAnotherException() {
        final OutOfMemoryError thrown = new OutOfMemoryError("Java heap space");
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            final List<Callable<Integer>> runs = List.of(() -> 1, () -> {
                throw thrown;
            });
            assertSame(thrown, assertThrows(OutOfMemoryError.class, () -> ParallelRuns.all(pool, runs)));
        }
    }

    @Test
    void aRunsExceptionIsRethrownAsItself() {
        final IllegalArgumentException thrown = new IllegalArgumentException("bad");
        try (ExecutorService pool = Executors.newFixedThreadPool(1)) {
            final List<Callable<Integer>> runs = List.of(() -> {
                throw thrown;
            });
            assertSame(thrown, assertThrows(IllegalArgumentException.class, () -> ParallelRuns.all(pool, runs)));
        }
    }
}
