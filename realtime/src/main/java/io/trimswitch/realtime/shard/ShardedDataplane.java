package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.dataplane.time.Picos;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * A real-time switch's shards and what connects them, whatever their ports are: the assembly, its queues on rings,
 * with a view of the traffic manager per pipeline component; the NOTIFY inboxes; per pipeline its ingress, egress and
 * recirculation; the pool's partitions with their rings of buffers on the way back; and, with several shards, a
 * hand-off ring per shard. {@link ShardOwnership} says which shard owns what. It builds each shard from the parts it is
 * given ({@link ShardParts}, a {@link ShardOrder}, its {@link ShardBuffers}, a {@link ShardWakeUp}), and alone holds
 * them all. Both real-time switches build one: the
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
    private final PoolPartitions partitions;
    /** Per shard, its piece of the pool's second class once asked for ({@link #frames}). */
    private final UmemShare[] frames;
    private final ThreadViews views;
    private final NotifyInboxes inboxes;
    private final PipelineShard[] shards;
    private final AgentRunner[] runners;
    private final Supplier<RunRecorder> dropRecorders;
    /** An ordered switch fills every queue on one thread: the traffic manager can tell its egress which ports to look at. */
    private final boolean wakeUps;

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
        this.inboxes = new NotifyInboxes(settings.fabric().pipelines());
        this.partitions = new PoolPartitions(pool, partitionSizes);
        this.frames = new UmemShare[shardCount];
        this.shards = new PipelineShard[shardCount];
        this.runners = new AgentRunner[shardCount];
        this.dropRecorders = dropRecorders;
        this.wakeUps = ordered;
        // With several shards, only a port's owner queues into it: the others hand it their packets, each shard over
        // a ring of its own to the traffic manager's shard when the shards keep one order, else over one ring per owner.
        final PortHandoff[] handoffs = new PortHandoff[shardCount];
        for (int shard = 0; shard < shardCount && shardCount > 1; shard++) {
            handoffs[shard] = new PortHandoff(pool.capacity(), !ownership.ordered());
        }
        this.views = new ThreadViews(settings, pool, ownership, counters, forwarding.floods(), partitions, handoffs, this::events,
            this::returnReachesPort);
        this.assembly = new AssembledSwitch(settings, pool, counters, HandleRing.factory(), events(true, null), views, pipelines -> inboxes,
            forwarding);
        // A live switch forwards only to the ports it has attached: egress looks at those alone.
        final int attachedCount = settings.ports().isEmpty() ? assembly.ports() : Math.min(settings.ports().size(), assembly.ports());
        this.attached = java.util.stream.IntStream.range(0, attachedCount).toArray();
        this.recirculation = new RecirculationStage[assembly.recirculationPorts()];
        buildStages(settings.fabric().portsPerPipeline());
        // A NOTIFY reaches the pipelines a recirculation latency after the start that raised it: how far they may run ahead.
        buildShards(handoffs, Picos.fromNanos(settings.recirculation().latencyNs()));
    }

    /** Per pipeline its ingress and its group of egress ports (those attached); per recirculation port its stage. */
    private void buildStages(final int portsPerPipeline) {
        final EgressPort.Departures beforePorts = (port, handle, time) -> {
            throw new IllegalStateException("port " + port + " sent before its shard had ports");
        };
        for (int pipeline = 0; pipeline < assembly.pipelines(); pipeline++) {
            ingress.add(new IngressStage(assembly.pipeline(pipeline), pool, inboxes.reader(pipeline)));
            final int firstPort = pipeline * portsPerPipeline;
            final EgressPort[] group = new EgressPort[Math.max(0, Math.min(portsPerPipeline, attached.length - firstPort))];
            for (int i = 0; i < group.length; i++) {
                group[i] = assembly.port(firstPort + i);
            }
            // What leaves goes to the ports of the shard that runs the group, once it has them (PipelineShard.ports).
            egress.add(new EgressStage(group, beforePorts));
            if (wakeUps) {
                egress.get(pipeline).lookOnlyAtWokenPorts();
            }
        }
        for (int port = 0; port < recirculation.length; port++) {
            if (assembly.recirculation(port) != null) {
                recirculation[port] = new RecirculationStage(assembly.recirculation(port));
            }
        }
    }

    /**
     * Each shard with its parts and the order it keeps: ordered, every shard's pipelines hand their packets over its ring
     * to the traffic manager's shard, which reads how far each has metered; else a shard queues what the others hand it
     * over its own ring. Then each shard's wake-up knows the others'.
     */
    private void buildShards(final PortHandoff[] handoffs, final long lookahead) {
        final PublishedTime[] meteredBefore = new PublishedTime[shards.length];
        final PublishedTime notifiesBefore = new PublishedTime(Long.MIN_VALUE);
        final ShardWakeUp[] wakeUpsOf = new ShardWakeUp[shards.length];
        for (int shard = 0; shard < shards.length; shard++) {
            meteredBefore[shard] = new PublishedTime(Long.MIN_VALUE);
        }
        for (int shard = 0; shard < shards.length; shard++) {
            final boolean runsTrafficManager = ownership.ordered() && shard == ownership.trafficManagerShard();
            final TrafficManager handedOver = ownership.ordered() && !runsTrafficManager || handoffs[shard] == null ? null
                : views.handOff(assembly.trafficManager(), events(true, null), "handoff-" + shard);
            final PortHandoff[] inbound = ownership.ordered() ? handoffs : handoffs[shard] == null ? new PortHandoff[0] : new PortHandoff[] {handoffs[shard]};
            final ShardParts parts = new ShardParts(shard, this, new InboundRings(pool, inbound, handedOver));
            final ShardOrder order = !ownership.ordered() ? new FreeRunningOrder(parts, assembly.ports())
                : new ConservativeOrder(parts, meteredBefore[shard], runsTrafficManager ? meteredBefore : null, notifiesBefore, lookahead);
            wakeUpsOf[shard] = new ShardWakeUp(parts);
            shards[shard] = new PipelineShard(shard, clock, partitions.of(shard), parts, order, wakeUpsOf[shard]);
        }
        for (int shard = 0; shard < shards.length; shard++) {
            final int self = shard;
            wakeUpsOf[shard].peers(java.util.stream.IntStream.range(0, shards.length).filter(other -> other != self)
                .mapToObj(other -> wakeUpsOf[other]).toArray(ShardWakeUp[]::new));
        }
    }

    /** What the traffic manager tells one thread: its own drop recorder; egress wake-ups where it queues on egress's thread. */
    private StageEvents events(final boolean queuesHere, final StageEvents.BeforeQueued beforeQueued) {
        return new StageEvents(pool, dropRecorders.get(), partitions::release, wakeUps && queuesHere ? this::wakeEgress : null, beforeQueued);
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

    /** Gives a buffer back to the shard whose partition it came from, whichever thread is done with it. */
    public void release(final int handle) {
        partitions.release(handle);
    }

    /** The shard whose partition buffer {@code handle} came from. */
    public int shardOfBuffer(final int handle) {
        return partitions.ownerOf(handle);
    }

    /** Shard {@code shard}'s piece of the pool's second class, the same object each call; null when it has none. */
    public synchronized UmemShare frames(final int shard) {
        if (frames[shard] == null && partitions.of(shard).frames() != null) {
            final PoolPartition piece = partitions.of(shard).frames();
            frames[shard] = new UmemShare(pool, piece.first(), piece.size(), shards[shard]::allocateFrame, this::release);
        }
        return frames[shard];
    }

    private void wakeEgress(final int port) {
        egress.get(assembly.pipelineOf(port)).wakePort(port);
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
     * Shard {@code shard}'s thread, not started, named {@code trimswitch-pipelines-N}, idling by {@code realtime}'s idle
     * mode; its first throw is reported to {@code fault} and ends the thread.
     */
    public Thread thread(final int shard, final Settings.RealTime realtime, final AtomicReference<RuntimeException> fault) {
        final String name = "trimswitch-" + shards[shard].roleName();
        runners[shard] = new AgentRunner(shards[shard].idleStrategy(realtime), error -> fault.compareAndSet(null, new RealTimeFault(name, error)),
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
        views.foldCountersInto(assembly);
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
        views.resetCounters(assembly.ports());
        ingress.forEach(IngressStage::reset);
        egress.forEach(EgressStage::reset);
        for (final PipelineShard shard : shards) {
            shard.reset();
        }
    }
}
