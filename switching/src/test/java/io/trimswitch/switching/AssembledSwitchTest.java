package io.trimswitch.switching;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.trafficmanager.TrafficManagerEvents;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AssembledSwitchTest {
    /** Nothing in these tests moves a packet: no event may come. */
    private static final TrafficManagerEvents NO_EVENTS = new TrafficManagerEvents() {
        @Override
        public void drop(final int handle, final DropReason reason, final long now) {
            throw new AssertionError("a drop");
        }

        @Override
        public void egressPending(final int port, final long now) {
        }

        @Override
        public void recirculationPending(final int pipeline, final long now) {
        }
    };

    private static AssembledSwitch assembled(final Settings settings) {
        return new AssembledSwitch(settings, new PacketPool(64), CounterRegistry.inMemory(AssembledSwitch.counters(settings, 0)), NO_EVENTS,
            due -> { }, AssembledSwitch.defaultForwarding(settings));
    }

    @Test
    void eachPortBelongsToThePipelineOfItsGroupAndAHostsOwnPortToThePipelineOfTheSwitchPortItStandsFor() {
        final Settings settings = Settings.DEFAULTS;
        final AssembledSwitch assembly = assembled(settings);
        final int perPipeline = settings.fabric().portsPerPipeline();
        assertEquals(settings.egressPorts(), assembly.ports());
        for (int port = 0; port < assembly.ports(); port++) {
            assertEquals((port % settings.portCount()) / perPipeline, assembly.pipelineOf(port), "port " + port);
            assertEquals(port, assembly.port(port).id());
        }
        assertEquals(settings.fabric().pipelines(), assembly.pipelines());
    }

    @Test
    void deflectOnDropGivesEveryPipelineARecirculationPortAndRaisesNoCongestionSignal() {
        final AssembledSwitch assembly = assembled(Settings.DEFAULTS.withMechanism(Mechanism.DOD));
        assertEquals(Settings.DEFAULTS.fabric().pipelines(), assembly.recirculationPorts());
        for (int pipeline = 0; pipeline < assembly.recirculationPorts(); pipeline++) {
            assertNotNull(assembly.recirculation(pipeline), "pipeline " + pipeline);
        }
        assertNull(assembly.signals());
    }

    @Test
    void tofinoRaisesCongestionSignalsFromItsRecirculationPorts() {
        final AssembledSwitch assembly = assembled(Settings.DEFAULTS.withMechanism(Mechanism.TOFINO));
        assertNotNull(assembly.signals());
        assertNotNull(assembly.recirculation(0));
    }

    @Test
    void tofino2SharesOneRecirculationPortAmongEightPorts() {
        final Settings settings = Settings.DEFAULTS.withMechanism(Mechanism.TOFINO2);
        assertEquals((settings.portCount() + 7) / 8, assembled(settings).recirculationPorts());
    }

    @Test
    void theIdealSwitchTrimsAtItsQueuesAndHasNoRecirculationPort() {
        final AssembledSwitch assembly = assembled(Settings.DEFAULTS.withMechanism(Mechanism.IDEAL));
        for (int pipeline = 0; pipeline < assembly.recirculationPorts(); pipeline++) {
            assertNull(assembly.recirculation(pipeline));
        }
    }

    @Test
    void everyPortCountsIntoTheSwitchsOneRegistry() {
        final AssembledSwitch assembly = assembled(Settings.DEFAULTS);
        for (int port = 0; port < assembly.ports(); port++) {
            assertSame(assembly.counters(), assembly.port(port).counters().registry());
        }
    }

    @Test
    void theCapacityBoundHoldsEveryQueueOfEveryPortAndRecirculationPort() {
        final Settings settings = Settings.DEFAULTS;
        final long queues = (long) settings.egressPorts() * (settings.dataQueuePacketsPerPort() + settings.fabric().headerQueuePackets())
            + (long) settings.recirculationPorts() * settings.recirculation().dodQueuePackets();
        assertTrue(AssembledSwitch.capacityBound(settings) > queues);
    }
}
