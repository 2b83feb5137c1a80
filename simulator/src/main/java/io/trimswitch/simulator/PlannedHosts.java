package io.trimswitch.simulator;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * End hosts whose flows are those of a {@link FlowPlan} and that send through their own events, never through the
 * engine's source: every transport's. What a run's report asks of the flows is the plan's, and a flow's
 * sending time runs from its start to its completion.
 */
public abstract class PlannedHosts implements TransportHosts {
    protected final FlowPlan plan;
    /** Whose hosts these are, for the message of a call that only a source outside may take. */
    private final String transport;

    protected PlannedHosts(final FlowPlan plan, final String transport) {
        this.plan = plan;
        this.transport = transport;
    }

    /** Schedules each flow's start on {@code sw}; a flow whose start is negative waits for {@link #startNow}. */
    protected final void scheduleStarts(final EndHosts.Switch sw) {
        for (int flow = 0; flow < plan.flows(); flow++) {
            if (plan.start(flow) >= 0) {
                sw.schedule(plan.start(flow), EventType.FLOW_START, flow);
            }
        }
    }

    @Override
    public final long nextTime() {
        return Long.MAX_VALUE;
    }

    @Override
    public final int nextFlow() {
        throw sendsThroughEvents();
    }

    @Override
    public final int nextLength() {
        throw sendsThroughEvents();
    }

    @Override
    public final void emit(final PacketPool pool, final int handle) {
        throw sendsThroughEvents();
    }

    private IllegalStateException sendsThroughEvents() {
        return new IllegalStateException(transport + " hosts send through events");
    }

    @Override
    public final int flows() {
        return plan.flows();
    }

    @Override
    public final int flowSource(final int flow) {
        return plan.sender(flow);
    }

    @Override
    public final int flowDestination(final int flow) {
        return plan.receiver(flow);
    }

    @Override
    public final int size(final int flow) {
        return plan.size(flow);
    }

    @Override
    public final long startPicos(final int flow) {
        return plan.start(flow);
    }

    /** Goodput over the flow's life: from its start to its completion. */
    @Override
    public final long sendingPicos(final int flow) {
        final long completion = completionPicos(flow);
        return completion < 0 ? 0 : completion - plan.start(flow);
    }

    @Override
    public final long packets() {
        return plan.packets();
    }

    @Override
    public final String description() {
        return plan.description();
    }
}
