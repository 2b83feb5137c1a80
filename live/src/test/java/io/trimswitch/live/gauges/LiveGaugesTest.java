package io.trimswitch.live.gauges;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.live.Await;
import io.trimswitch.trafficmanager.EgressPort;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gauges' sampler: every 100 ms while something changes, backing off to once a second while nothing does. */
@Tag("host-timing")
class LiveGaugesTest {
    private static final int PORT = 0;

    /** A port whose queues stay empty and whose kernel drops are what the test says; it counts the samples. */
    private static final class StillPort implements LiveGauges.Port {
        private final EgressPort egress = new EgressPort(PORT, LinkRate.gbps(100), new PacketPool(64), 16, 16, 10);
        final AtomicLong drops = new AtomicLong();
        final AtomicLong fillRingDrops = new AtomicLong();
        final AtomicInteger samples = new AtomicInteger();

        @Override
        public EgressPort egress() {
            return egress;
        }

        @Override
        public boolean depthsAt(final boolean data, final double[] percentiles, final long[] values) {
            return false;
        }

        @Override
        public long kernelDrops() {
            samples.incrementAndGet();
            return drops.get();
        }

        @Override
        public long fillRingDrops() {
            return fillRingDrops.get();
        }
    }

    @Test
    void anInterfacePortShowsItsEmptyFillRingApartFromItsFullReceiveRingAndAUdpPortHasNeither() {
        final CounterRegistry registry = CounterRegistry.inMemory(256);
        final StillPort onInterface = new StillPort();
        onInterface.drops.set(3);
        onInterface.fillRingDrops.set(5);
        final StillPort udp = new StillPort();
        udp.drops.set(2);
        udp.fillRingDrops.set(9);
        try (LiveGauges gauges = new LiveGauges(registry, 2, List.of(onInterface, udp), List.of(DropReason.RING_OVERFLOW, DropReason.SOCKET_OVERFLOW),
            List.of(), null)) {
            // Closing takes the last sample.
        }
        final CounterTotals totals = CounterTotals.read(registry.reader());
        assertEquals(java.util.Map.of("ringOverflow", 3L, "fillRingEmpty", 5L), totals.byName(0, CounterType.DROPS));
        assertEquals(java.util.Map.of("socketOverflow", 2L), totals.byName(1, CounterType.DROPS));
    }

    @Test
    void anIdleSwitchSamplesRarelyAndAChangeBringsTheShortPeriodBack() throws Exception {
        final CounterRegistry registry = CounterRegistry.inMemory(256);
        final StillPort port = new StillPort();
        try (LiveGauges gauges = new LiveGauges(registry, 1, List.of(port), List.of(DropReason.RING_OVERFLOW), List.of(), null)) {
            gauges.start();
            Thread.sleep(2_500);
            // 0, 0.2, 0.6, 1.4 and 2.4 s, where sampling every 100 ms would be 25 times; a slow host samples fewer, never more.
            final int idleSamples = port.samples.get();
            assertTrue(idleSamples <= 6, "an idle switch's gauges sampled " + idleSamples + " times in 2.5 s");

            port.drops.set(7);
            final long seen = Await.untilOrHostTooSlow(Duration.ofSeconds(3), "the gauge of a changed value",
                () -> CounterTotals.read(registry.reader()).byName(PORT, CounterType.DROPS).getOrDefault("ringOverflow", 0L), v -> v == 7);
            assertEquals(7, seen);
            // While values keep changing, the sampler is back at 100 ms.
            final int before = port.samples.get();
            final long until = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            while (System.nanoTime() < until) {
                port.drops.incrementAndGet();
                Thread.sleep(10);
            }
            final int busySamples = port.samples.get() - before;
            Await.untilOrHostTooSlow(Duration.ZERO, "ten samples a second", () -> busySamples, n -> n >= 6);
            assertTrue(busySamples <= 12, "a changing switch's gauges sampled " + busySamples + " times in 1 s");
        }
    }
}
