package io.trimswitch.realtime;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.source.OpenLoopSenders;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.realtime.shard.RealTimeFault;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

class RealTimeSwitchTest {
    /** Switch time a pipeline may run behind its ports and still be said to have kept up: a quarter of a T0. */
    private static final double SUSTAINED_LAG_NS = 1500;
    private static final int ATTEMPTS = 3;

    /** Eight ports in two pipelines, a 6:1 incast whose receiver overflows: trims at ingress and by DoD. */
    private static Settings small() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withClock(Settings.Clock.REAL);
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(4));
        settings = settings.withWorkload(x -> x.withPattern("pairs:1->0,2->0,3->0,4->0,5->0,6->0").withPackets(300).withDurationUs(120));
        settings = settings.withRealtime(x -> x.withDilation(2000).withWarmUp(false));
        return settings;
    }

    /**
     * A run that delivered every packet, or in which the host kept up with the clock: a run lasts a fixed switch time,
     * and a host that fell behind leaves packets inside at its end. Such a run is repeated, at most twice; a host that
     * never kept up is too slow for the test.
     */
    private static RunReport deliveredOrKeptUp(final RealTimeSwitch sw, final String what) {
        RunReport report = conserved(ReportBuilder.build(sw.run()), what);
        final StringBuilder lags = new StringBuilder();
        for (int attempt = 1; attempt < ATTEMPTS && !deliveredOrKeptUp(report); attempt++) {
            lags.append(report.run().realTime().maxIngressLagNs()).append(" ns; ");
            report = conserved(ReportBuilder.build(sw.run()), what);
        }
        if (!deliveredOrKeptUp(report)) {
            abort("host too slow: " + what + " fell behind in " + ATTEMPTS + " runs, by " + lags + report.run().realTime().maxIngressLagNs() + " ns");
        }
        return report;
    }

    /** However far behind the host fell, every packet is delivered, delivered as a header, or counted as dropped. */
    private static RunReport conserved(final RunReport report, final String what) {
        assertTrue(report.conservation(), what + ": " + report.sent() + " sent, " + report.deliveredWhole() + " whole, "
            + report.deliveredHeader() + " headers, drops " + report.drops());
        return report;
    }

    private static boolean deliveredOrKeptUp(final RunReport report) {
        return report.sent() == report.deliveredWhole() + report.deliveredHeader() || report.run().realTime().maxIngressLagNs() <= SUSTAINED_LAG_NS;
    }

    @Test
    @Tag("host-timing")
    void aRunDeliversEveryPacketWholeOrAsAHeaderAndEveryBufferGoesBackToThePool() {
        final RealTimeSwitch sw = new RealTimeSwitch(small().validate());
        final RunReport report = deliveredOrKeptUp(sw, "the run");

        assertEquals(1800, report.sent());
        assertTrue(report.conservation());
        assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader(), "nothing lost: " + report.drops());
        assertTrue(report.trims().total() > 0, "six senders into one port must trim");
        assertEquals(sw.bufferCapacity(), sw.freeBuffers(), "the pool is full again");
        assertEquals(0, report.run().leakedBuffers());
        assertEquals("real", report.run().clock());
        assertEquals(1, report.run().realTime().threads());
        assertEquals(report.deliveredWhole() + report.deliveredHeader(), report.ports().stream()
            .mapToLong(RunReport.PortReport::txPackets).sum(), "the ports' counters agree with the receivers");
    }

    @Test
    void stoppingUnderLoadCountsWhatWasInsideAsInFlightAndLosesNothing() {
        Settings settings = small();
        // The senders need 36 µs; the receiver's port far longer: the run ends with queues full.
        settings = settings.withWorkload(x -> x.withDurationUs(20));
        final RealTimeSwitch sw = new RealTimeSwitch(settings.validate());
        final RunOutcome outcome = sw.run();
        final RunReport report = ReportBuilder.build(outcome);

        assertTrue(outcome.inFlightAtEnd() > 0, "packets were inside the switch at the end");
        assertEquals(outcome.inFlightAtEnd(), report.drops().get("inFlightAtEnd"));
        assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader() + report.dropped());
        assertTrue(report.conservation());
        assertEquals(sw.bufferCapacity(), sw.freeBuffers());
    }

    @Test
    @Tag("host-timing")
    void everyPlacementRunsTheSameSwitchOnItsOwnNumberOfThreads() {
        for (final Map.Entry<String, Integer> placement : Map.of("split", 2, "per-pipeline", 4).entrySet()) {
            // Four pipelines, so that per-pipeline runs four shards; the senders' and receiver's ports are on different shards.
            Settings settings = small().withFabric(x -> x.withPipelines(4));
            settings = settings.withRealtime(x -> x.withPlacement(Settings.choice("realtime.placement", placement.getKey(), Settings.Placement.values())).withIdle(Settings.Idle.YIELD));
            final RunReport report = deliveredOrKeptUp(new RealTimeSwitch(settings.validate()), placement.getKey() + " placement");
            assertEquals(placement.getValue(), report.run().realTime().threads(), placement.getKey());
            assertTrue(report.conservation(), placement.getKey());
            assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader(), placement.getKey() + ": " + report.drops());
        }
    }

    @Test
    void aFaultInAnAgentStopsTheRunAndNamesTheThreadAndTheCause() {
        Settings settings = small();
        final TrafficSource failing = new FailingSource(OpenLoopSenders.forWorkload(settings.validate()), 100);
        final RealTimeSwitch sw = new RealTimeSwitch(settings.validate(), failing, Picos.fromMicros(120));

        final RealTimeFault fault = assertThrows(RealTimeFault.class, sw::run);
        assertTrue(fault.getMessage().contains("trimswitch-pipelines-0"), fault.getMessage());
        assertTrue(fault.getMessage().contains("generator broke at packet 100"), fault.getMessage());
    }

    @Test
    void settingsTheRealTimeSwitchCannotHonourAreRefusedByName() {
        final Settings ideal = small().withMechanism(Mechanism.IDEAL);
        assertTrue(assertThrows(ConfigException.class, () -> new RealTimeSwitch(ideal.validate())).getMessage().contains("ideal"));
        final Settings ndp = small().withTransport(x -> x.withKind(Settings.TransportKind.NDP));
        assertTrue(assertThrows(ConfigException.class, () -> new RealTimeSwitch(ndp.validate())).getMessage().contains("transport.kind open-loop"));
        final Settings slow = small().withRealtime(x -> x.withDilation(0.5));
        assertTrue(assertThrows(ConfigException.class, () -> new RealTimeSwitch(slow.validate())).getMessage().contains("realtime.dilation"));
    }

    /** Open-loop senders whose generator throws at one packet: a fault inside an agent. */
    private static final class FailingSource implements TrafficSource {
        private final TrafficSource inner;
        private final int failAt;
        private int emitted;

        FailingSource(final TrafficSource inner, final int failAt) {
            this.inner = inner;
            this.failAt = failAt;
        }

        @Override
        public long nextTime() {
            return inner.nextTime();
        }

        @Override
        public int nextFlow() {
            return inner.nextFlow();
        }

        @Override
        public int nextLength() {
            return inner.nextLength();
        }

        @Override
        public void emit(final PacketPool pool, final int handle) {
            if (++emitted == failAt) {
                throw new IllegalStateException("generator broke at packet " + failAt);
            }
            inner.emit(pool, handle);
        }

        @Override
        public void reset() {
            inner.reset();
            emitted = 0;
        }

        @Override
        public int flows() {
            return inner.flows();
        }

        @Override
        public int flowSource(final int flow) {
            return inner.flowSource(flow);
        }

        @Override
        public int flowDestination(final int flow) {
            return inner.flowDestination(flow);
        }

        @Override
        public long sendingPicos(final int flow) {
            return inner.sendingPicos(flow);
        }

        @Override
        public long packets() {
            return inner.packets();
        }

        @Override
        public int longestFrame() {
            return inner.longestFrame();
        }

        @Override
        public String description() {
            return "failing " + inner.description();
        }
    }
}
