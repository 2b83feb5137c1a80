package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.RunRecorder;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.dataplane.time.Picos;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * A real-time switch's shards and what connects them, whatever their ports are: the assembly, its queues on rings,
 * with a view of the traffic manager per pipeline component; the NOTIFY inboxes; per pipeline its ingress, egress and
 * recirculation; the pool's partitions with their rings of buffers on the way back; and, with several shards, a
 * hand-off ring per shard. {@link ShardOwnership} says which shard owns what. Both real-time switches build one: the
 * scenario switch with generated ports, keeping virtual time's order; the live switch with sockets and interfaces,
 * forwarding as fast as it can.
 */
public final class ShardedDataplane {
    final PacketPool pool;
    final DilatedClock clock;
    final AssembledSwitch assembly;
    /** The ports the switch forwards to, in order: all of the assembly's, or those a live switch was given. */
    final int[] attached;
    final List<IngressStage> ingress = new ArrayList<>();
    final List<EgressStage> egress = new ArrayList<>();
    /** Per recirculation port: its stage, or null. */
    final RecirculationStage[] recirculation;
    final ShardOwnership ownership;
    private final List<TrafficManager> threadTrafficManagers = new ArrayList<>();
    private final NotifyInboxes inboxes;
    private final PipelineShard[] shards;
    private final HandleRing[] returned;
    /** Per slab of the pool: the shard whose partition it is. */
    private final int[] ownerOfSlab;
    private final AgentRunner[] runners;

    /**
     * @param shardCount     how many shards (at most the pipelines)
     * @param partitionSizes per shard, how many of the pool's buffers it allocates from (0: none), each a whole number of
     *                       slabs, in shard order from the pool's start
     * @param counters       where every counter of the switch lives ({@link #counters})
     * @param dropRecorders  a fresh recorder of drops for each component that feeds the traffic manager
     * @param ordered        whether the shards keep virtual time's order (a scenario: the traffic manager on one shard,
     *                       which queues every packet at its instant once no pipeline can still send it an earlier
     *                       one), or forward as fast as they can (a live switch: each pipeline's egress on its shard).
     *                       Ordered, every queue is filled on one thread, so egress looks only at the ports the
     *                       traffic manager woke (busy, or queued for) rather than at every port before each arrival:
     *                       what a scenario's 64 ports need
     * @param host           the host clock the switch's dilated clock reads
     */
    public ShardedDataplane(
        final Settings settings, final PacketPool pool, final int shardCount, final int[] partitionSizes, final CounterRegistry counters,
        final ForwardingStage forwarding, final Supplier<RunRecorder> dropRecorders, final boolean ordered, final NanoClock host) {
        this.pool = pool;
        this.clock = new DilatedClock(host, settings.realtime().dilation());
        this.ownership = new ShardOwnership(settings, shardCount, ordered);
        final int pipelines = settings.fabric().pipelines();
        this.inboxes = new NotifyInboxes(pipelines);
        this.shards = new PipelineShard[shardCount];
        this.runners = new AgentRunner[shardCount];
        this.returned = new HandleRing[shardCount];
        this.ownerOfSlab = new int[(pool.capacity() + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB];
        final PoolPartition[] partitions = new PoolPartition[shardCount];
        int first = 0;
        for (int shard = 0; shard < shardCount; shard++) {
            if (partitionSizes[shard] > 0) {
                partitions[shard] = new PoolPartition(pool, first, partitionSizes[shard]);
                returned[shard] = new HandleRing(partitionSizes[shard], shardCount > 1);
                java.util.Arrays.fill(ownerOfSlab, first / PacketPool.SLOTS_PER_SLAB,
                    (first + partitionSizes[shard] + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB, shard);
                first += partitionSizes[shard];
            }
        }
        // An ordered switch fills every queue on one thread: the traffic manager can tell its egress which ports to look at.
        final boolean wakeUps = ordered;
        final StageEvents.Release release = this::release;
        // With several shards, only a port's owner queues into it: the others hand it their packets, each shard over
        // a ring of its own to the traffic manager's shard when the shards keep one order, else over one ring per owner.
        final PortHandoff[] handoffs = new PortHandoff[shardCount];
        for (int shard = 0; shard < shardCount && shardCount > 1; shard++) {
            handoffs[shard] = new PortHandoff(pool.capacity(), !ownership.ordered());
        }
        this.assembly = new AssembledSwitch(settings, pool, counters, HandleRing.factory(),
            new StageEvents(pool, dropRecorders.get(), release, wakeUps ? this::wakeEgress : null, null),
            (component, pipeline, shared) -> {
                final boolean ingress = component == AssembledSwitch.Component.INGRESS;
                final int shard = ingress ? ownership.ingressShard(pipeline) : ownership.recirculationShard(pipeline);
                // A pipeline of an ordered switch queues nothing itself: it may run ahead of the traffic manager.
                final boolean queuesHere = !(ingress && ownership.ordered());
                final TrafficManager thread = shared.forThread(new StageEvents(pool, dropRecorders.get(), release,
                    wakeUps && queuesHere ? this::wakeEgress : null, ingress ? null : (port, time) -> returnReachesPort(shard, port, time)),
                    component.name().toLowerCase(Locale.ROOT) + "-" + pipeline);
                // A flood's copies take buffers of the shard that runs the pipeline, the one that allocates from that partition.
                final TrafficManager own = !(ingress && forwarding.floods()) ? thread
                    : thread.replicating(() -> shards[shard].allocate(), counters, pipelinePorts(settings, pipeline), PipelineShard.roleName(shard));
                threadTrafficManagers.add(own);
                if (shardCount == 1) {
                    return own;
                }
                final EgressPort[] ports = new EgressPort[settings.egressPorts()];
                for (int port = 0; port < ports.length; port++) {
                    ports[port] = queuesHere && ownership.queuesDirectly(shard, port) ? own.port(port)
                        : (ownership.ordered() ? handoffs[shard] : handoffs[ownership.egressShard(port)])
                            .standIn(own.port(port), pool, settings.fabric().headersPerData());
                }
                return own.withPorts(ports);
            },
            pipelineArray -> inboxes, forwarding);
        final int portsPerPipeline = settings.fabric().portsPerPipeline();
        // A live switch forwards only to the ports it has attached: egress looks at those alone.
        final int attachedCount = settings.ports().isEmpty() ? assembly.ports() : Math.min(settings.ports().size(), assembly.ports());
        this.attached = java.util.stream.IntStream.range(0, attachedCount).toArray();
        this.recirculation = new RecirculationStage[assembly.recirculationPorts()];
        for (int pipeline = 0; pipeline < pipelines; pipeline++) {
            ingress.add(new IngressStage(assembly.pipeline(pipeline), pool, inboxes.reader(pipeline)));
            final int firstPort = pipeline * portsPerPipeline;
            final EgressPort[] group = new EgressPort[Math.max(0, Math.min(portsPerPipeline, attachedCount - firstPort))];
            for (int i = 0; i < group.length; i++) {
                group[i] = assembly.port(firstPort + i);
            }
            final PipelineShard[] owners = shards;
            final int owner = ownership.egressShardOfPipeline(pipeline);
            egress.add(new EgressStage(group, (port, handle, time) -> owners[owner].departed(port, handle, time)));
            if (wakeUps) {
                egress.get(pipeline).lookOnlyAtWokenPorts();
            }
        }
        for (int port = 0; port < recirculation.length; port++) {
            if (assembly.recirculation(port) != null) {
                recirculation[port] = new RecirculationStage(assembly.recirculation(port), pool);
            }
        }
        // A NOTIFY reaches the pipelines a recirculation latency after the start that raised it: how far they may run ahead.
        final long lookahead = Picos.fromNanos(settings.recirculation().latencyNs());
        for (int shard = 0; shard < shardCount; shard++) {
            final int self = shard;
            final boolean runsTrafficManager = ownership.ordered() && shard == ownership.trafficManagerShard();
            shards[shard] = new PipelineShard(shard, this, partitions[shard], returned[shard],
                ownership.ordered() ? handoffs : handoffs[shard] == null ? new PortHandoff[0] : new PortHandoff[] {handoffs[shard]},
                ownership.ordered() && !runsTrafficManager || handoffs[shard] == null ? null
                    : newThreadView(new StageEvents(pool, dropRecorders.get(), release, wakeUps ? this::wakeEgress : null, null), "handoff-" + shard),
                lookahead);
            for (int pipeline = 0; pipeline < pipelines; pipeline++) {
                // An ordered shard's pipelines meter alone; otherwise a shard brings its egress up to each arrival first.
                if (ownership.ingressShard(pipeline) == self && !ownership.ordered()) {
                    ingress.get(pipeline).shard(shards[shard]);
                }
            }
        }
        for (final PipelineShard shard : shards) {
            shard.peers(shards);
        }
    }

    /** A live switch's dataplane, or a scenario's, on the host's own clock. */
    public ShardedDataplane(
        final Settings settings, final PacketPool pool, final int shardCount, final int[] partitionSizes, final CounterRegistry counters,
        final ForwardingStage forwarding, final Supplier<RunRecorder> dropRecorders, final boolean ordered) {
        this(settings, pool, shardCount, partitionSizes, counters, forwarding, dropRecorders, ordered, SystemNanoClock.INSTANCE);
    }

    /**
     * Counters a registry needs for this dataplane: one set per port for each pipeline's ingress and recirculation and
     * for each shard's hand-off, besides the ports' own.
     */
    public static int counters(final Settings settings, final int shards) {
        return AssembledSwitch.counters(settings, settings.fabric().pipelines() + settings.recirculationPorts() + (shards > 1 ? shards : 0));
    }

    /** The ports of the fabric that pipeline {@code pipeline} receives on, attached or not yet. */
    private static int[] pipelinePorts(final Settings settings, final int pipeline) {
        final int first = pipeline * settings.fabric().portsPerPipeline();
        return java.util.stream.IntStream.range(first, Math.min(first + settings.fabric().portsPerPipeline(), settings.portCount())).toArray();
    }

    /** Gives a buffer back to the shard whose partition it came from, whichever thread is done with it. */
    public void release(final int handle) {
        returned[ownerOfSlab[handle / PacketPool.SLOTS_PER_SLAB]].offer(handle);
    }

    private void wakeEgress(final int port) {
        egress.get(assembly.pipelineOf(port)).wakePort(port);
    }

    private TrafficManager newThreadView(final StageEvents events, final String writer) {
        final TrafficManager own = assembly.trafficManager().forThread(events, writer);
        threadTrafficManagers.add(own);
        return own;
    }

    public PacketPool pool() {
        return pool;
    }

    public AssembledSwitch assembly() {
        return assembly;
    }

    public DilatedClock clock() {
        return clock;
    }

    public PipelineShard shard(final int shard) {
        return shards[shard];
    }

    public int shards() {
        return shards.length;
    }

    /** The shard that meters what arrives on port {@code port}: its pipeline's. */
    public int shardOf(final int port) {
        return ownership.ingressShardOfPort(port);
    }

    /** Who owns what: pipelines, ports, recirculation ports. */
    public ShardOwnership ownership() {
        return ownership;
    }

    /**
     * A recirculated header reaches port {@code port}'s queue at {@code time} from shard {@code shard}: the port first
     * ends what it sends by that instant, as in virtual time, where a transmission ending at an instant comes before a
     * return at it ({@link io.trimswitch.switching.CatchUp}). Only where that shard owns the port; a live switch's
     * other shards hand the header over, and nothing orders them.
     */
    private void returnReachesPort(final int shard, final int port, final long time) {
        if (ownership.egressShard(port) == shard) {
            egress.get(assembly.pipelineOf(port)).advancePort(port, time);
        }
    }

    /**
     * Shard {@code shard}'s thread, not started, named {@code trimswitch-pipelines-N}, idling by {@code idle}; its first
     * throw is reported to {@code fault} and ends the thread.
     */
    public Thread thread(final int shard, final Settings.Idle idle, final AtomicReference<RuntimeException> fault) {
        final String name = "trimswitch-" + shards[shard].roleName();
        runners[shard] = new AgentRunner(shards[shard].idleStrategy(idle), error -> fault.compareAndSet(null, new RealTimeFault(name, error)),
            null, shards[shard]);
        final Thread thread = new Thread(runners[shard], name);
        thread.setDaemon(true);
        return thread;
    }

    /** Stops every shard and waits for each thread to end after its last turn. */
    public void stop() {
        stop(java.util.concurrent.TimeUnit.HOURS.toMillis(1), 5_000);
    }

    /**
     * Stops every shard, and waits for each thread to end after its last turn, within {@code withinMillis} for all of
     * them, interrupting a thread that has not ended every {@code retryMillis}. Per shard, whether its thread ended (one
     * that never started has); one that has not is blocked in a call that ignores interrupts, and is left to end with
     * the process.
     */
    public boolean[] stop(final long withinMillis, final long retryMillis) {
        for (final PipelineShard shard : shards) {
            shard.stop();
        }
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(withinMillis);
        final boolean[] ended = new boolean[shards.length];
        for (int shard = 0; shard < shards.length; shard++) {
            if (runners[shard] == null) {
                ended[shard] = true;
                continue;
            }
            try {
                // Agrona retries until the thread ends; throwing from its fail action is the only way to give up.
                runners[shard].close((int) retryMillis, stuck -> {
                    if (System.nanoTime() - deadline > 0) {
                        throw new GaveUp();
                    }
                });
                ended[shard] = true;
            } catch (final GaveUp e) {
                ended[shard] = false;
            }
        }
        return ended;
    }

    /** Whether shard {@code shard}'s thread was ever made to run. */
    public boolean ran(final int shard) {
        return runners[shard] != null;
    }

    /** Thrown out of a runner's close once stop's time is up. */
    private static final class GaveUp extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GaveUp() {
            super("stop's time is up", null, false, false);
        }
    }

    /** Once the threads have stopped: every thread's counts into the ports' own counters. */
    public void foldCountersIntoPorts() {
        for (final TrafficManager threadTm : threadTrafficManagers) {
            for (int port = 0; port < assembly.ports(); port++) {
                assembly.port(port).counters().add(threadTm.counters(port));
            }
        }
    }

    /** Every packet still inside (waiting to arrive, handed over, queued, serialising, looping) to {@code inFlight}; threads stopped. */
    public void drainTo(final IntConsumer inFlight) {
        for (final PipelineShard shard : shards) {
            shard.drainWaiting(inFlight);
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

    /** NOTIFYs due by {@code time} reach their pipelines, as they would have had the run gone on; threads stopped. */
    public void applyNotifiesBefore(final long time) {
        for (final IngressStage stage : ingress) {
            stage.drainInbox();
            stage.applyNotifiesBefore(time);
        }
    }

    /** NOTIFYs that found a pipeline's inbox full. */
    public long lostNotifies() {
        return inboxes.lost();
    }

    /** The last instant a packet left an egress port. */
    public long lastPacketPicos() {
        long last = 0;
        for (final EgressStage stage : egress) {
            last = Math.max(last, stage.lastPacketPicos());
        }
        return last;
    }

    /** Buffers of the pool not back (after a stop and a drain: 0). */
    public int buffersInUse() {
        int inUse = 0;
        for (final PipelineShard shard : shards) {
            inUse += shard.buffersInUse();
        }
        return inUse;
    }

    /** Before a run again (threads stopped, every buffer back): counters, queues and stages as new. */
    public void reset() {
        assembly.reset();
        for (final TrafficManager threadTm : threadTrafficManagers) {
            for (int port = 0; port < assembly.ports(); port++) {
                threadTm.counters(port).reset();
            }
        }
        ingress.forEach(IngressStage::reset);
        egress.forEach(EgressStage::reset);
        for (final RecirculationStage loop : recirculation) {
            if (loop != null) {
                loop.reset();
            }
        }
        for (final PipelineShard shard : shards) {
            shard.reset();
        }
    }
}
