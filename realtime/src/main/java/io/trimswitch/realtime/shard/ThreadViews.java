package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.TrafficManager;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * How each thread of a real-time switch sees the traffic manager: a view of its own per ingress pipeline, recirculation
 * port and hand-off (its own drop recorder and counters, one writer each). With several shards, a view's port is the
 * real one only where its shard is the one that queues into it; elsewhere a stand-in hands the packet over a ring to
 * that shard (to the traffic manager's shard, in a switch that keeps one order). A bridging pipeline makes a flood's
 * copies from the buffers of the shard that runs it.
 */
final class ThreadViews implements AssembledSwitch.TrafficManagerThreads {
    /** What the traffic manager tells one thread: {@code queuesHere} whether it queues into ports itself. */
    @FunctionalInterface
    interface Events {
        StageEvents of(boolean queuesHere, StageEvents.BeforeQueued beforeQueued);
    }

    /** A header recirculated on shard {@code shard}'s thread reaches port {@code port}'s queue at {@code time}. */
    @FunctionalInterface
    interface Returns {
        void reaches(int shard, int port, long time);
    }

    private final Settings settings;
    private final PacketPool pool;
    private final ShardOwnership ownership;
    private final CounterRegistry counters;
    private final boolean floods;
    private final PoolPartitions partitions;
    /** Per shard, the ring it hands packets over on (ordered) or is handed packets on; none with one shard. */
    private final PortHandoff[] handoffs;
    private final Events events;
    private final Returns returns;
    private final List<TrafficManager> views = new ArrayList<>();

    ThreadViews(final Settings settings, final PacketPool pool, final ShardOwnership ownership, final CounterRegistry counters, final boolean floods,
        final PoolPartitions partitions, final PortHandoff[] handoffs, final Events events, final Returns returns) {
        this.settings = settings;
        this.pool = pool;
        this.ownership = ownership;
        this.counters = counters;
        this.floods = floods;
        this.partitions = partitions;
        this.handoffs = handoffs;
        this.events = events;
        this.returns = returns;
    }

    @Override
    public TrafficManager of(final AssembledSwitch.Component component, final int pipeline, final TrafficManager shared) {
        final boolean ingress = component == AssembledSwitch.Component.INGRESS;
        final int shard = ingress ? ownership.ingressShard(pipeline) : ownership.recirculationShard(pipeline);
        // A pipeline of an ordered switch queues nothing itself: it may run ahead of the traffic manager.
        final boolean queuesHere = !(ingress && ownership.ordered());
        final TrafficManager thread = shared.forThread(events.of(queuesHere, ingress ? null : (port, time) -> returns.reaches(shard, port, time)),
            component.name().toLowerCase(Locale.ROOT) + "-" + pipeline);
        // A flood's copies take buffers of the shard that runs the pipeline, the one that allocates from that partition.
        final TrafficManager own = !(ingress && floods) ? thread
            : thread.replicating(partitions.of(shard)::allocate, counters, pipelinePorts(pipeline), PipelineShard.roleName(shard));
        views.add(own);
        if (handoffs.length == 1) {
            return own;
        }
        final EgressPort[] ports = new EgressPort[settings.egressPorts()];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = queuesHere && ownership.queuesDirectly(shard, port) ? own.port(port)
                : (ownership.ordered() ? handoffs[shard] : handoffs[ownership.egressShard(port)])
                    .standIn(own.port(port), pool, settings.fabric().headersPerData());
        }
        return own.withPorts(ports);
    }

    /** A view of {@code shared} for a thread that queues what other shards hand it over, as {@code writer}. */
    TrafficManager handOff(final TrafficManager shared, final StageEvents threadEvents, final String writer) {
        final TrafficManager own = shared.forThread(threadEvents, writer);
        views.add(own);
        return own;
    }

    /** The ports of the fabric that pipeline {@code pipeline} receives on, attached or not yet. */
    private int[] pipelinePorts(final int pipeline) {
        final int first = pipeline * settings.fabric().portsPerPipeline();
        return IntStream.range(first, Math.min(first + settings.fabric().portsPerPipeline(), settings.portCount())).toArray();
    }

    /** Once the threads have stopped: every view's counts into the ports' own counters. */
    void foldCountersInto(final AssembledSwitch assembly) {
        for (final TrafficManager view : views) {
            for (int port = 0; port < assembly.ports(); port++) {
                assembly.port(port).counters().add(view.counters(port));
            }
        }
    }

    /** Before a run again: every view's counts to zero. */
    void resetCounters(final int ports) {
        for (final TrafficManager view : views) {
            for (int port = 0; port < ports; port++) {
                view.counters(port).reset();
            }
        }
    }
}
