package io.trimswitch.realtime;

import io.trimswitch.realtime.shard.Ingress;
import io.trimswitch.realtime.shard.PortKind;

import java.util.function.IntConsumer;

/**
 * One shard's ports of a scenario's kind ({@link ScenarioPortKind}), and the shard's way in for the bursts they receive
 * (a scenario's shard has no other kind): what the scenario reads of them between and after runs.
 */
public interface ScenarioPorts extends PortKind, Ingress {
    /** Every workload packet has been sent and every buffer has come back: nothing is left in the switch. */
    boolean quiet();

    /** Packets that left this shard's egress ports. */
    long departed();

    /** How far behind its due time a packet came in at most, in picoseconds. */
    long maxLagPicos();

    /** At the run's end: hands {@code inFlight} each packet still on its way into these ports. */
    void drainTo(IntConsumer inFlight);

    /** Ready for the next run. */
    void reset();
}
