package io.trimswitch.bench;

import io.trimswitch.network.run.NetworkRun;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Memory a network holds per host after a run of {@link NetworkBenchmark#fabric128()}: the heap it keeps reachable and
 * the off-heap packet buffers it touched, against the same JVM before the network was built.
 * {@code java -cp bench/target/benchmarks.jar io.trimswitch.bench.NetworkFootprint}
 */
public final class NetworkFootprint {
    private NetworkFootprint() {
    }

    public static void main(final String[] args) {
        final long heapBefore = heapUsed();
        final long directBefore = direct();
        final NetworkRun network = NetworkRun.of(NetworkBenchmark.fabric128());
        network.run();
        final long heap = heapUsed() - heapBefore;
        final long offHeap = direct() - directBefore;
        final int hosts = network.hostCount();
        System.out.printf(Locale.ROOT, "%d hosts, %d packets sent: heap %.1f MiB, packet buffers %.1f MiB; per host %.0f KiB heap, %.0f KiB buffers%n",
            hosts, network.packetsSent(), heap / 1048576.0, offHeap / 1048576.0, heap / 1024.0 / hosts, offHeap / 1024.0 / hosts);
        // Keeps the network reachable until it has been measured.
        if (network.packetsSent() < 0) {
            System.out.println(network);
        }
    }

    private static long heapUsed() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long direct() {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }
}
