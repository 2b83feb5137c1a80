package io.trimswitch.architecture;

/** A class that reads the host's clock and starts a thread: what {@link ClockRuleTest} plants in a clock-free package. */
final class PlantedClockReader {
    private PlantedClockReader() {
    }

    static long now() {
        return System.nanoTime();
    }

    static Thread spin() {
        return Thread.ofPlatform().start(() -> { });
    }

    static java.util.concurrent.ExecutorService pool() {
        return new java.util.concurrent.ForkJoinPool(2);
    }
}
