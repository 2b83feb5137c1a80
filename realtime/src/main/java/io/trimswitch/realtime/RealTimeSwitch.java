package io.trimswitch.realtime;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.PortKinds;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.switching.capture.FrameCapture;
import io.trimswitch.switching.source.OpenLoopSenders;
import io.trimswitch.switching.record.RealTimeStats;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.run.SwitchRun;
import io.trimswitch.switching.run.SwitchRunView;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.realtime.shard.DilatedClock;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.realtime.shard.PortList;
import io.trimswitch.realtime.shard.PortTap;
import io.trimswitch.realtime.shard.ShardSleep;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The switch in real time: the same components as the virtual-time switch, run by pipeline shards
 * ({@link PipelineShard}) paced by the host clock, dilated so the modelled switch fits the host. The first shard's
 * ports generate the workload: each packet is metered the instant it is due, or put on the receive ring of the shard
 * that owns its port. Pipelines meter, decide and offer packet handles to the traffic manager's rings (a data ring per
 * egress port of exactly its capacity, a header ring, a DoD ring per pipeline); each shard's egress drains and paces
 * its ports, its recirculation drains its DoD rings, trims, and raises NOTIFYs through lock-free inboxes. Each shard
 * counts into its own counters and recorder; the run's report totals them once every thread has stopped.
 */
public final class RealTimeSwitch {
    /** Switch time zero comes this long after the threads are started, so all of them see it begin. */
    private static final long START_DELAY_NANOS = 20_000_000;
    /** The kind of port a scenario's traffic comes in on. */
    private static final String GENERATED = "generated";

    private final Settings settings;
    private final TrafficSource source;
    private final PacketPool pool;
    private final ShardedDataplane dataplane;
    private final AssembledSwitch assembly;
    private final RunRecorder recorder;
    private final List<RunRecorder> threadRecorders = new ArrayList<>();
    /** Per shard: its ports; the first shard's generate the workload. */
    private final ScenarioPorts[] ports;
    private final long durationPicos;
    private boolean warmedUp;
    private FrameCapture capture;

    /** The switch of {@code settings}, whose clock must be {@code real}, with its workload's open-loop senders. */
    public RealTimeSwitch(final Settings settings) {
        this(settings, null, -1);
    }

    /**
     * The switch of {@code settings} fed by {@code source} (null: the workload's open-loop senders) for
     * {@code durationPicos} of switch time; negative: the workload's duration for open-loop senders, and
     * for another source until it has sent everything and the switch is empty.
     */
    public RealTimeSwitch(final Settings settings, final TrafficSource source, final long durationPicos) {
        this(settings, source, durationPicos, SystemNanoClock.INSTANCE);
    }

    /** The same on host clock {@code host}: a test's, which it moves on itself while it drives the shards. */
    RealTimeSwitch(final Settings settings, final TrafficSource source, final long durationPicos, final NanoClock host) {
        this.settings = settings;
        if (!this.settings.realTime()) {
            throw new ConfigException("the real-time switch needs clock real, got '" + this.settings.clock().label() + "'");
        }
        this.source = source != null ? source : OpenLoopSenders.forWorkload(this.settings);
        this.durationPicos = durationPicos >= 0 ? durationPicos
            : source == null ? Picos.fromMicros(this.settings.workload().durationUs()) : Long.MAX_VALUE;
        final int pipelines = this.settings.fabric().pipelines();
        final int shards = this.settings.realtime().shards(pipelines);
        // The queues, the receive rings, and buffers on their way back to the pool.
        final long bound = AssembledSwitch.capacityBound(this.settings) + (long) pipelines * this.settings.realtime().rxRingPackets();
        final int flows = this.source.flows();
        // Header arrival times are kept per packet; the recorders grow if a run trims more than this.
        final int packets = (int) Math.min(this.source.packets(), 1 << 20);
        this.recorder = new RunRecorder(flows, packets);
        // Whole frames: a jumbo workload's or capture's take jumbo buffers. The generating shard takes them all.
        this.pool = new PacketPool((int) Math.min(this.source.packets() + 1, bound + 1), PacketPool.slotFor(this.source.longestFrame()));
        final int[] partitions = new int[shards];
        partitions[0] = pool.capacity();
        this.dataplane = new ShardedDataplane(this.settings, pool, shards, partitions,
            CounterRegistry.inMemory(ShardedDataplane.counters(this.settings, shards)), AssembledSwitch.defaultForwarding(this.settings),
            () -> threadRecorder(flows, 16), true, host);
        this.assembly = dataplane.assembly();
        this.ports = PortKinds.named(ScenarioPortKind.class, GENERATED).open(this.settings, dataplane, this.source,
            () -> threadRecorder(flows, packets));
        for (int shard = 0; shard < shards; shard++) {
            dataplane.shard(shard).ports(new PortList(assembly.ports(), ShardSleep.parked()).add(ports[shard], ownPorts(shard)).ingress(ports[shard]));
        }
    }

    private RunRecorder threadRecorder(final int flows, final int headerArrivals) {
        final RunRecorder threadRecorder = new RunRecorder(flows, headerArrivals);
        threadRecorders.add(threadRecorder);
        return threadRecorder;
    }

    /**
     * Runs the workload in real time for the run's duration of switch time, stops every thread, and
     * counts whatever is still inside the switch as in flight at the end. Unless warm-up is off, the
     * first run of a switch is preceded by unmeasured runs until the JIT has compiled the dataplane.
     *
     * @throws RealTimeFault when an agent threw; the other threads are stopped first
     */
    public RunOutcome run() {
        if (settings.realtime().warmUp() && !warmedUp) {
            // The first runs in a JVM are interpreted code racing the clock; they only teach the JIT.
            attachCapture(null);
            JitWarmUp.until(this::runOnce);
            warmedUp = true;
        }
        attachCapture(capture);
        try {
            return runOnce();
        } finally {
            attachCapture(null);
        }
    }

    private RunOutcome runOnce() {
        reset();
        final AtomicReference<RuntimeException> fault = new AtomicReference<>();
        final long wallStart = System.nanoTime();
        // Shards without sockets do not sleep in the kernel: poll backs off.
        final Settings.RealTime idle = settings.realtime().idle() == Settings.Idle.POLL ? settings.realtime().withIdle(Settings.Idle.BACKOFF) : settings.realtime();
        clock().endAt(durationPicos);
        clock().startIn(START_DELAY_NANOS);
        try {
            for (int shard = 0; shard < dataplane.shards(); shard++) {
                dataplane.shard(shard).go();
                dataplane.thread(shard, idle, fault).start();
            }
            awaitEnd(fault);
        } finally {
            dataplane.stop();
        }
        if (fault.get() != null) {
            throw fault.get();
        }
        return finish((System.nanoTime() - wallStart) / 1e6);
    }

    /** Which shard takes the next turn, when a test drives them all from one thread (it may move the host clock on too). */
    @FunctionalInterface
    interface TurnOrder {
        int nextShard();
    }

    /**
     * A run with every shard's turns taken on this thread, in the order {@code order} gives, until the run's switch time
     * has passed on the host clock (a test's, which {@code order} moves on): whatever order the threads might run in.
     */
    RunOutcome runTurnByTurn(final TurnOrder order) {
        reset();
        clock().endAt(durationPicos);
        clock().startIn(0);
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            dataplane.shard(shard).go();
        }
        while (!ended()) {
            dataplane.shard(order.nextShard()).doWork();
        }
        dataplane.stop();
        return finish(0);
    }

    /** Every thread has stopped: what is inside is counted, the threads' counts totalled, and the run's figures taken. */
    private RunOutcome finish(final double wallMs) {
        final long inFlight = drainInFlight();
        total();
        long maxLag = ports[0].maxLagPicos();
        long maxGap = 0;
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            maxLag = Math.max(maxLag, dataplane.shard(shard).maxLagPicos());
            maxGap = Math.max(maxGap, dataplane.shard(shard).longestTurnGapPicos());
        }
        final RealTimeStats stats = new RealTimeStats(settings.realtime().dilation(), settings.realtime().placement().label(), settings.realtime().idle().label(),
            dataplane.shards(), Math.round(wallMs * 10) / 10.0, Math.round(maxLag / 100.0) / 10.0, dataplane.lostNotifies(),
            Math.round(maxGap / 100.0) / 10.0);
        final SwitchRun finished = new SwitchRunView(settings, source, assembly, recorder, durationPicos, dataplane.lastPacketPicos(),
            workCycles(), null, "open-loop", stats);
        return new RunOutcome(finished, inFlight, dataplane.buffersInUse());
    }

    private DilatedClock clock() {
        return dataplane.clock();
    }

    /**
     * For benchmarks that drive the threads themselves: resets the switch, starts its clock now, and
     * returns one agent per shard, each to be driven by one caller thread calling
     * {@link Agent#doWork()} in a loop. The run's figures are not gathered.
     */
    public List<Agent> startDrivenByCaller() {
        reset();
        clock().startIn(0);
        final List<Agent> agents = new ArrayList<>();
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            dataplane.shard(shard).go();
            agents.add(dataplane.shard(shard));
        }
        return agents;
    }

    /** Packets that have left shard {@code shard}'s egress ports: on that shard's thread only. */
    public long departed(final int shard) {
        return ports[shard].departed();
    }

    /** Hands every frame a port receives and sends to {@code capture} (null: none); shared by the threads, so it is locked. */
    public void capture(final FrameCapture capture) {
        this.capture = capture == null ? null : new LockedCapture(capture);
    }

    private void attachCapture(final FrameCapture frames) {
        for (int shard = 0; shard < ports.length; shard++) {
            dataplane.shard(shard).ports().tap(frames == null ? PortTap.NONE : new FrameCaptureTap(frames, pool));
        }
    }

    /**
     * The ports whose packets shard {@code shard} sends: those of the egress pipelines it runs (a packet leaves by the
     * shard of its egress port, whichever shard metered it).
     */
    private int[] ownPorts(final int shard) {
        return java.util.stream.IntStream.range(0, assembly.ports()).filter(port -> dataplane.ownership().egressShard(port) == shard).toArray();
    }

    /**
     * Whether the run is over: with a duration, once every shard has done everything up to its end (switch time stops
     * there); without one, once the switch is empty.
     */
    private boolean ended() {
        if (durationPicos == Long.MAX_VALUE) {
            return ports[0].quiet();
        }
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            if (dataplane.shard(shard).doneThrough() < durationPicos) {
                return false;
            }
        }
        return true;
    }

    /** Until the run is over ({@link #ended()}). */
    private void awaitEnd(final AtomicReference<RuntimeException> fault) {
        while (fault.get() == null) {
            final long now = clock().nowPicos();
            if (ended()) {
                return;
            }
            final long remainingMillis = durationPicos == Long.MAX_VALUE ? 1 : clock().hostNanos(durationPicos - Math.max(0, now)) / 1_000_000;
            try {
                Thread.sleep(Math.max(1, Math.min(50, remainingMillis)));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Every thread has stopped: what is still queued, serialising, looping or received is counted, never lost. */
    private long drainInFlight() {
        final RunRecorder endRecorder = threadRecorder(source.flows(), 16);
        final long[] drained = new long[1];
        final java.util.function.IntConsumer asInFlight = handle -> {
            drained[0]++;
            endRecorder.dropped(pool.flow(handle), DropReason.IN_FLIGHT_AT_END);
            dataplane.release(handle);
        };
        for (final ScenarioPorts each : ports) {
            each.drainTo(asInFlight);
        }
        dataplane.drainTo(asInFlight);
        // NOTIFYs due within the run reach their pipelines, as they would have.
        dataplane.applyNotifiesBefore(durationPicos + 1);
        return drained[0];
    }

    /** Totals the threads' counters into the ports' and their recorders into the run's. */
    private void total() {
        dataplane.foldCountersIntoPorts();
        for (final RunRecorder threadRecorder : threadRecorders) {
            recorder.add(threadRecorder);
        }
    }

    /** Duty cycles that did work, over every shard. */
    private long workCycles() {
        long cycles = 0;
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            cycles += dataplane.shard(shard).workCycles();
        }
        return cycles;
    }

    private void reset() {
        dataplane.reset();
        for (final RunRecorder threadRecorder : threadRecorders) {
            threadRecorder.reset();
        }
        recorder.reset();
        source.reset();
        for (final ScenarioPorts each : ports) {
            each.reset();
        }
    }

    /** Buffers in the pool: after a run every one is back (none leaked). */
    public int freeBuffers() {
        return pool.capacity() - dataplane.buffersInUse();
    }

    public int bufferCapacity() {
        return pool.capacity();
    }

    /** The components, with every port's counters totalled over the threads that counted. */
    public AssembledSwitch assembly() {
        return assembly;
    }
}
