package io.trimswitch.simulator;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.source.OpenLoopSenders;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VirtualTimeEngineTest {
    /** An incast that overflows its port and its small header queue: packets are trimmed, deflected and dropped. */
    private static final Settings INCAST = Settings.DEFAULTS.withOpenLoop().withMechanism(Mechanism.DOD)
        .withWorkload(w -> w.withPattern("incast:32->1").withPackets(200))
        .withFabric(f -> new Settings.Fabric(f.pipelines(), f.portsPerPipeline(), f.portRateGbps(), f.dataQueuePackets(), 8, f.headersPerData()));

    /** One switch on the engine, fed by the workload's open-loop senders, as a lone switch's run is. */
    static VirtualTimeEngine lone(final Settings settings) {
        final TrafficSource source = OpenLoopSenders.forWorkload(settings);
        final long bound = AssembledSwitch.capacityBound(settings);
        final PacketPool pool = new PacketPool((int) Math.min(source.packets(), bound) + 1, settings.workload().packetBytes());
        return new VirtualTimeEngine(VirtualTimeEngine.Switches.lone(settings), Wiring.loneSwitch(settings.egressPorts()), source, null, pool,
            Picos.fromMicros(settings.workload().durationUs()), LinkFailures.NONE);
    }

    /** What a user sees of a run: its counts and its times. */
    private static String summary(final VirtualTimeEngine engine, final VirtualTimeEngine.Outcome outcome) {
        final RunRecorder recorder = engine.recorder();
        return "sent " + recorder.sentTotal() + " whole " + recorder.wholeTotal() + " headers " + recorder.headersTotal() + " dropped "
            + recorder.droppedTotal() + " in flight " + outcome.inFlightAtEnd() + " events " + engine.eventsHandled() + " last packet "
            + engine.lastPacketPicos();
    }

    @Test
    void theSameWorkloadGivesTheSameRunEventForEvent() {
        final VirtualTimeEngine first = lone(INCAST);
        final String once = summary(first, first.run());
        final VirtualTimeEngine second = lone(INCAST);
        assertEquals(once, summary(second, second.run()));
    }

    @Test
    void aRunAgainStartsFromScratchWhateverTheRunBeforeLeft() {
        final VirtualTimeEngine engine = lone(INCAST);
        final String first = summary(engine, engine.run());
        // Left over from the run before: a buffer taken and a drop counted.
        final int leftOver = engine.allocate();
        engine.pool().ingressPort(leftOver, 0);
        engine.node(0).assembly().trafficManager().drop(leftOver, DropReason.NO_ROUTE, engine.durationPicos());
        engine.allocate();
        assertEquals(first, summary(engine, engine.run()));
        assertEquals(0, engine.node(0).drops(DropReason.NO_ROUTE));
    }

    @Test
    void everyPacketSentIsDeliveredWholeOrAsAHeaderOrDroppedAndEveryBufferComesBack() {
        final VirtualTimeEngine engine = lone(INCAST);
        final VirtualTimeEngine.Outcome outcome = engine.run();
        final RunRecorder recorder = engine.recorder();
        assertTrue(recorder.headersTotal() > 0 && recorder.droppedTotal() > 0, "the incast overflows: " + summary(engine, outcome));
        assertEquals(recorder.sentTotal(), recorder.wholeTotal() + recorder.headersTotal() + recorder.droppedTotal());
        assertEquals(0, outcome.leakedBuffers());
    }

    @Test
    void nothingHappensAfterTheRunsEnd() {
        final VirtualTimeEngine engine = lone(INCAST.withWorkload(w -> w.withDurationUs(20)));
        engine.run();
        assertTrue(engine.lastEventPicos() <= engine.durationPicos(), engine.lastEventPicos() + " > " + engine.durationPicos());
        assertTrue(engine.lastPacketPicos() <= engine.durationPicos());
    }
}
