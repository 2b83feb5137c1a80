package io.trimswitch.simulator;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.pipelines.IngressPipeline;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.TrafficManagerEvents;

/**
 * One switch of the engine's network: its components, wired for its mechanism, and where its ports and recirculation
 * ports sit in the network's numbering. It hands what its traffic manager asks for to the engine, ends its ports'
 * transmissions by its egress timing; its drops are counted at its ports, in its registry.
 */
public final class SwitchNode implements TrafficManagerEvents {
    private final int id;
    private final String name;
    private final String tier;
    private final Settings settings;
    private final AssembledSwitch assembly;
    /** Network number of this switch's port 0, and of its recirculation port 0. */
    private final int portBase;
    private final int recirculationBase;
    private final VirtualTimeEngine engine;
    private final EgressTiming eager;
    /** Null unless nothing watches the order of deliveries across ports (see {@link LazyEgress}). */
    private final EgressTiming lazy;
    private EgressTiming egress;
    /** Per port, the pipeline that takes what arrives there: one array on a packet's way in, not the assembly's two. */
    private final IngressPipeline[] ingress;

    SwitchNode(final VirtualTimeEngine engine, final int id, final String name, final String tier, final Settings settings,
        final PacketPool pool, final ForwardingStage forwarding, final int portBase, final int recirculationBase) {
        this.engine = engine;
        this.id = id;
        this.name = name;
        this.tier = tier;
        this.settings = settings;
        this.portBase = portBase;
        this.recirculationBase = recirculationBase;
        this.assembly = new AssembledSwitch(settings, pool, CounterRegistry.packed(), this, due -> engine.schedule(due, EventType.NOTIFY, id), forwarding);
        this.ingress = new IngressPipeline[assembly.ports()];
        for (int port = 0; port < ingress.length; port++) {
            ingress[port] = assembly.pipeline(assembly.pipelineOf(port));
        }
        final EgressPort.Departures delivery = (port, handle, time) -> engine.deliver(this, port, handle, time);
        // One array on the way to a port, not the assembly and its array.
        final EgressPort[] ports = new EgressPort[assembly.ports()];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = assembly.port(port);
        }
        this.eager = new EagerEgress(ports, delivery, engine, portBase);
        this.lazy = new LazyEgress(ports, delivery);
        this.egress = eager;
    }

    /** Ends transmissions lazily in the next runs, or by an event each. */
    void lazyEgress(final boolean lazily) {
        egress = lazily ? lazy : eager;
    }

    EgressTiming egress() {
        return egress;
    }

    /** The traffic manager dropped a packet: it has counted it at its port already, in the switch's registry. */
    @Override
    public void drop(final int handle, final DropReason reason, final long now) {
        engine.drop(handle, reason);
    }

    /** The network dropped a packet at port {@code port} of this switch (its link was down): counted at the port. */
    void dropAt(final int port, final int handle, final DropReason reason) {
        assembly.port(port).counters().dropped(reason);
        engine.drop(handle, reason);
    }

    /**
     * A packet still inside the switch when the run ended: counted where the traffic manager counts its drops, at its
     * egress port, or where it came in when it had none.
     */
    void dropInside(final int handle, final DropReason reason) {
        final int egress = engine.pool().egressPort(handle);
        dropAt(egress >= 0 ? egress : engine.pool().ingressPort(handle), handle, reason);
    }

    /** A packet from outside comes before a transmission that ends at its instant; any other event comes after it. */
    @Override
    public void beforeEnqueue(final int port, final long time) {
        egress.beforeEnqueue(port, CatchUp.horizon(time, engine.handlingArrival()));
    }

    @Override
    public void egressPending(final int port, final long now) {
        egress.pending(port, now);
    }

    @Override
    public void recirculationPending(final int pipeline, final long now) {
        if (assembly.recirculation(pipeline).isIdle()) {
            advanceRecirculation(pipeline, now);
        }
    }

    /** Recirculation port {@code pipeline}'s transmission due now ends, and its packet returns a loop's latency later. */
    void recirculationDone(final int pipeline, final long now) {
        advanceRecirculation(pipeline, now);
    }

    private void advanceRecirculation(final int pipeline, final long now) {
        final RecirculationPort port = assembly.recirculation(pipeline);
        if (port.advanceTo(now) > 0) {
            engine.schedule(port.lastLoopBack(), EventType.RECIRCULATION_RETURN, recirculationBase + pipeline);
        }
        final long due = port.nextDue();
        if (due != Long.MAX_VALUE) {
            engine.schedule(due, EventType.RECIRCULATION_DONE, recirculationBase + pipeline);
        }
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** "leaf" or "spine". */
    public String tier() {
        return tier;
    }

    public Settings settings() {
        return settings;
    }

    public AssembledSwitch assembly() {
        return assembly;
    }

    /** The pipeline that owns {@code port}. */
    IngressPipeline ingress(final int port) {
        return ingress[port];
    }

    int portBase() {
        return portBase;
    }

    int recirculationBase() {
        return recirculationBase;
    }

    /** Packets this switch dropped for {@code reason} in the last run: what its ports counted. */
    public long drops(final DropReason reason) {
        long total = 0;
        for (int port = 0; port < assembly.ports(); port++) {
            total += assembly.port(port).counters().drops(reason);
        }
        return total;
    }

    void reset() {
        assembly.reset();
        eager.reset();
        lazy.reset();
    }
}
