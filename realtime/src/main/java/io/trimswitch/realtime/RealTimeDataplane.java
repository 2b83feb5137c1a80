package io.trimswitch.realtime;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.trafficmanager.TrafficManagerEvents;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The real-time switch's threads and what connects them, whatever its ports are: the packet pool, a
 * receive ring per ingress pipeline, the assembly with its
 * queues on rings and a traffic manager view per thread, the NOTIFY inboxes, and the ingress, egress and
 * recirculation agents. The ports (generators, or UDP sockets) are the one part that differs.
 */
final class RealTimeDataplane {
    final Settings settings;
    final PacketPool pool;
    final HandleRing[] rxRings;
    final DilatedClock clock;
    final AssembledSwitch assembly;
    final List<TrafficManager> threadTrafficManagers = new ArrayList<>();
    final List<IngressAgent> ingress = new ArrayList<>();
    final List<EgressAgent> egress = new ArrayList<>();
    final List<RecirculationAgent> recirculation = new ArrayList<>();
    private final NotifyInboxes inboxes;
    /** Per port: the egress agent that sends it and the port's place in that agent's group, or -1. */
    private final int[] egressOfPort;
    private final int[] indexInGroup;
    private final Supplier<TrafficManagerEvents> threadEvents;

    /**
     * @param pool         owned by the ports' thread(s)
     * @param threadEvents a fresh sink for one thread's drops, called once per thread that feeds the traffic manager
     * @param departures   for egress group {@code g} (pipeline g's ports), where its packets go once sent
     */
    RealTimeDataplane(
        final Settings settings, final PacketPool pool, final ForwardingStage forwarding,
        final Supplier<TrafficManagerEvents> threadEvents, final IntFunction<EgressAgent.Departures> departures) {
        this(settings, pool, CounterRegistry.inMemory(counters(settings, 0)), forwarding, threadEvents, departures, (pipeline, view) -> view, true);
    }

    /**
     * Counters a registry needs for this dataplane: the ports' own, one set per port for each pipeline's ingress and
     * recirculation, and {@code moreThreads} sets per port for threads that {@link #newThreadView()} adds.
     */
    static int counters(final Settings settings, final int moreThreads) {
        return AssembledSwitch.counters(settings, settings.fabric().pipelines() + settings.recirculationPorts() + moreThreads);
    }

    /** How pipeline {@code pipeline}'s components see the traffic manager, given their thread's own view of it. */
    @FunctionalInterface
    interface PipelineView {
        TrafficManager of(int pipeline, TrafficManager threadView);
    }

    /**
     * @param counters where every counter of the switch lives
     * @param views how each pipeline's ingress and recirculation see the traffic manager
     * @param receiveRings a ring per pipeline that a ports agent fills; without them (the live switch) a pipeline's
     *                     shard hands it each packet itself
     */
    RealTimeDataplane(
        final Settings settings, final PacketPool pool, final CounterRegistry counters, final ForwardingStage forwarding,
        final Supplier<TrafficManagerEvents> threadEvents, final IntFunction<EgressAgent.Departures> departures,
        final PipelineView views, final boolean receiveRings) {
        this.threadEvents = threadEvents;
        this.settings = settings;
        final int pipelines = settings.fabric().pipelines();
        final int batch = settings.realtime().batchPackets();
        this.pool = pool;
        this.clock = new DilatedClock(SystemNanoClock.INSTANCE, settings.realtime().dilation());
        this.inboxes = new NotifyInboxes(pipelines);
        this.assembly = new AssembledSwitch(settings, pool, counters, HandleRing.factory(), threadEvents.get(),
            (component, pipeline, shared) -> {
                final TrafficManager own = shared.forThread(threadEvents.get(), component.name().toLowerCase(java.util.Locale.ROOT) + "-" + pipeline);
                threadTrafficManagers.add(own);
                return views.of(pipeline, own);
            },
            pipelineArray -> inboxes, forwarding);
        this.rxRings = new HandleRing[receiveRings ? pipelines : 0];
        final int portsPerPipeline = settings.fabric().portsPerPipeline();
        // A live switch forwards only to the ports it has attached: egress looks at those alone, not at the assembly's
        // every port on each turn and before each arrival.
        final int attached = settings.ports().isEmpty() ? assembly.ports() : Math.min(settings.ports().size(), assembly.ports());
        this.egressOfPort = new int[assembly.ports()];
        this.indexInGroup = new int[assembly.ports()];
        java.util.Arrays.fill(egressOfPort, -1);
        for (int pipeline = 0; pipeline < pipelines; pipeline++) {
            if (receiveRings) {
                rxRings[pipeline] = new HandleRing(settings.realtime().rxRingPackets(), false);
            }
            ingress.add(new IngressAgent(assembly.pipeline(pipeline), pool, receiveRings ? rxRings[pipeline] : null, inboxes.reader(pipeline),
                clock, batch));
            final int first = pipeline * portsPerPipeline;
            final EgressPort[] group = new EgressPort[Math.max(0, Math.min(portsPerPipeline, attached - first))];
            for (int i = 0; i < group.length; i++) {
                group[i] = assembly.port(first + i);
                egressOfPort[first + i] = egress.size();
                indexInGroup[first + i] = i;
            }
            egress.add(new EgressAgent("egress-" + pipeline, group, departures.apply(pipeline), clock));
            final RecirculationPort port = assembly.recirculation(pipeline);
            if (port != null) {
                recirculation.add(new RecirculationAgent(pipeline, port, pool, clock));
            }
        }
    }

    /**
     * The agents' threads for the settings' placement, the ports' own agent (may be null) first. Generator
     * ports and every agent on one thread run in lockstep, in virtual time's order.
     */
    List<AgentPlacement.ThreadPlan> threads(final Agent ports) {
        final boolean oneThread = settings.realtime().placement() == Settings.Placement.SINGLE;
        if (oneThread && ports instanceof PortsAgent) {
            barrierOnArrival(true);
            egress.forEach(EgressAgent::lookOnlyAtWokenPorts);
            return List.of(new AgentPlacement.ThreadPlan("trimswitch-switch",
                new LockstepAgent((PortsAgent) ports, ingress, new CatchUp(recirculation, egress), rxRings, pool, settings.realtime().batchPackets()),
                1 + ingress.size() + recirculation.size() + egress.size()));
        }
        barrierOnArrival(false);
        egress.forEach(EgressAgent::lookAtEveryPort);
        return AgentPlacement.place(settings.realtime().placement(), ports, ingress, egress, recirculation);
    }

    /** The traffic manager queued for idle {@code port} on the thread that sends it: its egress agent looks at it again. */
    void wakeEgress(final int port) {
        final int agent = egressOfPort[port];
        if (agent >= 0) {
            egress.get(agent).wake(indexInGroup[port]);
        }
    }

    /** With every agent on one thread, recirculation and egress are brought up to each arrival before it is metered. */
    private void barrierOnArrival(final boolean oneThread) {
        final CatchUp barrier = new CatchUp(recirculation, egress);
        for (final IngressAgent agent : ingress) {
            agent.barrier(oneThread ? barrier : null);
        }
    }

    /**
     * Starts one named thread per thread of the placement, each running its agents with the settings' idle
     * strategy; the first agent to throw is reported to {@code fault}.
     */
    List<AgentRunner> start(final List<AgentPlacement.ThreadPlan> plans, final AtomicReference<RuntimeException> fault) {
        final List<AgentRunner> runners = new ArrayList<>();
        for (final AgentPlacement.ThreadPlan plan : plans) {
            final AgentRunner runner = new AgentRunner(AgentPlacement.idleStrategy(settings.realtime().idle()),
                error -> fault.compareAndSet(null, new RealTimeFault(plan.name(), error)), null, plan.agent());
            runners.add(runner);
            AgentRunner.startOnThread(runner, task -> {
                final Thread thread = new Thread(task, plan.name());
                thread.setDaemon(true);
                return thread;
            });
        }
        return runners;
    }

    /** A view of the traffic manager for one more thread ({@code writer}), with counters of its own in the switch's registry. */
    TrafficManager newThreadView(final String writer) {
        final TrafficManager own = assembly.trafficManager().forThread(threadEvents.get(), writer);
        threadTrafficManagers.add(own);
        return own;
    }

    /** Once the threads have stopped: every thread's counts into the ports' own counters. */
    void foldCountersIntoPorts() {
        for (final TrafficManager threadTm : threadTrafficManagers) {
            for (int port = 0; port < assembly.ports(); port++) {
                assembly.port(port).counters().add(threadTm.counters(port));
            }
        }
    }

    /** Every packet still inside (received, queued, serialising, looping) to {@code inFlight}; threads stopped. */
    void drainTo(final java.util.function.IntConsumer inFlight) {
        for (final HandleRing ring : rxRings) {
            for (int handle = ring.poll(); handle != PacketPool.NO_PACKET; handle = ring.poll()) {
                inFlight.accept(handle);
            }
        }
        for (int port = 0; port < assembly.ports(); port++) {
            assembly.port(port).drainTo(inFlight);
        }
        for (int pipeline = 0; pipeline < assembly.pipelines(); pipeline++) {
            if (assembly.recirculation(pipeline) != null) {
                assembly.recirculation(pipeline).drainTo(inFlight);
            }
        }
    }

    /** NOTIFYs that found a pipeline's inbox full. */
    long lostNotifies() {
        return inboxes.lost();
    }

    void reset() {
        pool.reset();
        assembly.reset();
        for (final TrafficManager threadTm : threadTrafficManagers) {
            for (int port = 0; port < assembly.ports(); port++) {
                threadTm.counters(port).reset();
            }
        }
        for (final HandleRing ring : rxRings) {
            ring.reset();
        }
        ingress.forEach(IngressAgent::reset);
        egress.forEach(EgressAgent::reset);
        recirculation.forEach(RecirculationAgent::reset);
    }
}
