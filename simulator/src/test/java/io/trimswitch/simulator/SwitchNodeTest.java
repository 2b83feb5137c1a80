package io.trimswitch.simulator;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.DropReason;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SwitchNodeTest {
    private static final Settings INCAST = Settings.DEFAULTS.withOpenLoop().withMechanism(Mechanism.DOD)
        .withWorkload(w -> w.withPattern("incast:32->1").withPackets(200))
        .withFabric(f -> new Settings.Fabric(f.pipelines(), f.portsPerPipeline(), f.portRateGbps(), f.dataQueuePackets(), 8, f.headersPerData()));

    @Test
    void aDropIsCountedUnderItsReasonAtItsPortAndInTheFlowsRecordAndItsBufferFreed() {
        final VirtualTimeEngine engine = VirtualTimeEngineTest.lone(INCAST);
        final SwitchNode node = engine.node(0);
        final int handle = engine.allocate();
        engine.pool().flow(handle, 2);
        engine.pool().ingressPort(handle, 5);
        node.assembly().trafficManager().drop(handle, DropReason.NO_ROUTE, 0);
        assertEquals(1, node.drops(DropReason.NO_ROUTE));
        assertEquals(1, node.assembly().port(5).counters().drops(DropReason.NO_ROUTE), "where it came in: it had no egress port");
        assertEquals(0, node.drops(DropReason.DATA_QUEUE_FULL));
        assertEquals(1, engine.recorder().droppedOf(2, DropReason.NO_ROUTE));
        assertEquals(0, engine.pool().inUse());
    }

    @Test
    void theSwitchCountsEveryDropOfARunButThoseStillInsideAtItsEnd() {
        final VirtualTimeEngine engine = VirtualTimeEngineTest.lone(INCAST);
        final VirtualTimeEngine.Outcome outcome = engine.run();
        long counted = 0;
        for (final DropReason reason : DropReason.values()) {
            counted += engine.node(0).drops(reason);
        }
        assertTrue(counted > 0, "the incast overflows its port");
        assertEquals(engine.recorder().droppedTotal() - outcome.inFlightAtEnd(), counted);
    }

    @Test
    void aRunAgainCountsItsOwnDropsOnly() {
        final VirtualTimeEngine engine = VirtualTimeEngineTest.lone(INCAST);
        engine.run();
        final long once = engine.node(0).drops(DropReason.DOD_OVERFLOW) + engine.node(0).drops(DropReason.HEADER_QUEUE_FULL);
        engine.run();
        assertEquals(once, engine.node(0).drops(DropReason.DOD_OVERFLOW) + engine.node(0).drops(DropReason.HEADER_QUEUE_FULL));
    }

    @Test
    void aSwitchKnowsItsPlaceInTheNetwork() {
        final SwitchNode node = VirtualTimeEngineTest.lone(INCAST).node(0);
        assertEquals(0, node.id());
        assertEquals(INCAST.mechanism(), node.assembly().mechanism());
        assertEquals(0, node.portBase());
    }
}
