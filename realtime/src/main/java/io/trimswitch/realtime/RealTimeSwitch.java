package io.trimswitch.realtime;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.switching.FlowLifetimes;
import io.trimswitch.switching.FrameCapture;
import io.trimswitch.switching.OpenLoopSenders;
import io.trimswitch.switching.RealTimeStats;
import io.trimswitch.switching.RunOutcome;
import io.trimswitch.switching.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.SwitchRun;
import io.trimswitch.switching.TrafficSource;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The switch in real time: the same components as the virtual-time switch, driven by agent threads
 * paced by the host clock, dilated so the modelled switch fits the host. Generator ports feed each
 * ingress pipeline's receive ring; pipelines meter, decide and offer packet handles to the traffic
 * manager's rings (a data ring per egress port of exactly its capacity, a header ring, a DoD ring per
 * pipeline); egress groups drain and pace the ports; recirculation threads drain the DoD rings, trim and
 * raise NOTIFYs through lock-free inboxes. Each thread counts into its own counters and recorder; the
 * run's report totals them once every thread has stopped.
 */
public final class RealTimeSwitch implements SwitchRun {
    /** Switch time zero comes this long after the threads are started, so all of them see it begin. */
    private static final long START_DELAY_NANOS = 20_000_000;

    private final Settings settings;
    private final TrafficSource source;
    private final PacketPool pool;
    private final HandleRing returns;
    private final HandleRing[] rxRings;
    private final DilatedClock clock;
    private final RealTimeDataplane dataplane;
    private final AssembledSwitch assembly;
    private final RunRecorder recorder;
    private final List<RunRecorder> threadRecorders = new ArrayList<>();
    private final List<RecordedDepartures> departures = new ArrayList<>();
    private final PortsAgent ports;
    private final List<IngressAgent> ingress;
    private final List<EgressAgent> egress;
    private final List<RecirculationAgent> recirculation;
    private final long durationPicos;
    private long lastPacketPicos;
    private long workCycles;
    private RealTimeStats stats;
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
        this.settings = settings;
        if (!this.settings.realTime()) {
            throw new ConfigException("the real-time switch needs clock real, got '" + this.settings.clock().label() + "'");
        }
        this.source = source != null ? source : OpenLoopSenders.forWorkload(this.settings);
        this.durationPicos = durationPicos >= 0 ? durationPicos
            : source == null ? Picos.fromMicros(this.settings.workload().durationUs()) : Long.MAX_VALUE;
        final int pipelines = this.settings.fabric().pipelines();
        // The queues, the receive rings, and buffers on their way back to the pool.
        final long bound = AssembledSwitch.capacityBound(this.settings) + (long) pipelines * this.settings.realtime().rxRingPackets();
        final int flows = this.source.flows();
        // Header arrival times are kept per packet; the recorders grow if a run trims more than this.
        final int packets = (int) Math.min(this.source.packets(), 1 << 20);
        this.recorder = new RunRecorder(flows, packets);
        // Whole frames: a jumbo workload's or capture's take jumbo buffers.
        this.pool = new PacketPool((int) Math.min(this.source.packets() + 1, bound + 1), PacketPool.slotFor(this.source.longestFrame()));
        this.returns = new HandleRing(pool.capacity(), true);
        final AgentEvents.Release toPool = returns::offer;
        this.dataplane = new RealTimeDataplane(this.settings, pool, AssembledSwitch.defaultForwarding(this.settings),
            // With every agent on one thread, the traffic manager's wake-ups tell egress which ports to look at.
            () -> new AgentEvents(pool, threadRecorder(flows, 16), toPool,
                this.settings.realtime().placement() == Settings.Placement.SINGLE ? this::wakeEgress : null),
            group -> new RecordedDepartures(pool, threadRecorder(flows, packets), toPool));
        this.rxRings = dataplane.rxRings;
        this.clock = dataplane.clock;
        this.assembly = dataplane.assembly;
        this.ingress = dataplane.ingress;
        this.egress = dataplane.egress;
        this.recirculation = dataplane.recirculation;
        this.ports = new PortsAgent(this.source, pool, assembly, rxRings, returns, threadRecorder(flows, 16), clock,
            this.settings.realtime().batchPackets());
    }

    private void wakeEgress(final int port) {
        dataplane.wakeEgress(port);
    }

    /** Sent packets are recorded for the receivers, captured if asked, and their buffers given back. */
    private final class RecordedDepartures implements EgressAgent.Departures {
        private final PacketPool packets;
        private final RunRecorder delivered;
        private final AgentEvents.Release release;
        private FrameCapture frames;

        RecordedDepartures(final PacketPool packets, final RunRecorder delivered, final AgentEvents.Release release) {
            this.packets = packets;
            this.delivered = delivered;
            this.release = release;
            departures.add(this);
        }

        @Override
        public void departed(final int port, final int handle, final long time) {
            if (frames != null) {
                frames.sent(port, time, packets.buffer(handle), packets.offset(handle), packets.length(handle));
            }
            delivered.delivered(packets.flow(handle), packets.trimKind(handle), packets.returnedToSender(handle),
                packets.arrivalPicos(handle), time);
            release.release(handle);
        }

        void capture(final FrameCapture capture) {
            this.frames = capture;
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
        final List<AgentPlacement.ThreadPlan> plans = dataplane.threads(ports);
        final AtomicReference<RuntimeException> fault = new AtomicReference<>();
        final List<AgentRunner> runners = new ArrayList<>();
        final long wallStart = System.nanoTime();
        clock.startIn(START_DELAY_NANOS);
        try {
            runners.addAll(dataplane.start(plans, fault));
            awaitEnd(fault);
        } finally {
            for (final AgentRunner runner : runners) {
                runner.close();
            }
        }
        if (fault.get() != null) {
            throw fault.get();
        }
        final double wallMs = (System.nanoTime() - wallStart) / 1e6;
        final long inFlight = drainInFlight();
        total();
        long maxLag = ports.maxLagPicos();
        for (final IngressAgent agent : ingress) {
            maxLag = Math.max(maxLag, agent.maxLagPicos());
        }
        stats = new RealTimeStats(settings.realtime().dilation(), settings.realtime().placement().label(), settings.realtime().idle().label(), plans.size(),
            Math.round(wallMs * 10) / 10.0, Math.round(maxLag / 100.0) / 10.0, dataplane.lostNotifies());
        return new RunOutcome(this, inFlight, pool.inUse());
    }

    /**
     * For benchmarks that drive the threads themselves: resets the switch, starts its clock now, and
     * returns one agent per thread of the placement, each to be driven by one caller thread calling
     * {@link Agent#doWork()} in a loop. The run's figures are not gathered.
     */
    public List<Agent> startDrivenByCaller() {
        reset();
        clock.startIn(0);
        final List<Agent> agents = new ArrayList<>();
        for (final AgentPlacement.ThreadPlan plan : dataplane.threads(ports)) {
            agents.add(plan.agent());
        }
        return agents;
    }

    /** Hands every frame a port receives and sends to {@code capture} (null: none); shared by the threads, so it is locked. */
    public void capture(final FrameCapture capture) {
        this.capture = capture == null ? null : new LockedCapture(capture);
    }

    private void attachCapture(final FrameCapture frames) {
        ports.capture(frames);
        for (final RecordedDepartures departed : departures) {
            departed.capture(frames);
        }
    }

    /** Until the run's duration of switch time has passed, or with no duration until the switch is empty. */
    private void awaitEnd(final AtomicReference<RuntimeException> fault) {
        while (fault.get() == null) {
            final long now = clock.nowPicos();
            if (durationPicos == Long.MAX_VALUE ? ports.quiet() : now >= durationPicos) {
                return;
            }
            final long remainingMillis = durationPicos == Long.MAX_VALUE ? 1 : clock.hostNanos(durationPicos - Math.max(0, now)) / 1_000_000;
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
            pool.free(handle);
        };
        returns.drain(pool::free, Integer.MAX_VALUE);
        dataplane.drainTo(asInFlight);
        // Buffers freed by the last drops come back through the ring too.
        returns.drain(pool::free, Integer.MAX_VALUE);
        // NOTIFYs due within the run reach their pipelines, as they would have.
        for (final IngressAgent agent : ingress) {
            agent.applyNotifiesBefore(durationPicos + 1);
        }
        return drained[0];
    }

    /** Totals the threads' counters into the ports' and their recorders into the run's. */
    private void total() {
        dataplane.foldCountersIntoPorts();
        for (final RunRecorder threadRecorder : threadRecorders) {
            recorder.add(threadRecorder);
        }
        lastPacketPicos = 0;
        workCycles = ports.workCycles();
        for (final EgressAgent agent : egress) {
            lastPacketPicos = Math.max(lastPacketPicos, agent.lastPacketPicos());
            workCycles += agent.workCycles();
        }
        for (final IngressAgent agent : ingress) {
            workCycles += agent.workCycles();
        }
        for (final RecirculationAgent agent : recirculation) {
            workCycles += agent.workCycles();
        }
    }

    private void reset() {
        dataplane.reset();
        returns.reset();
        for (final RunRecorder threadRecorder : threadRecorders) {
            threadRecorder.reset();
        }
        recorder.reset();
        source.reset();
        ports.reset();
        stats = null;
    }

    /** Buffers in the pool: after a run every one is back (none leaked). */
    public int freeBuffers() {
        return pool.capacity() - pool.inUse();
    }

    public int bufferCapacity() {
        return pool.capacity();
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public TrafficSource source() {
        return source;
    }

    @Override
    public AssembledSwitch assembly() {
        return assembly;
    }

    @Override
    public RunRecorder recorder() {
        return recorder;
    }

    @Override
    public long durationPicos() {
        return durationPicos;
    }

    @Override
    public long lastPacketPicos() {
        return lastPacketPicos;
    }

    @Override
    public long eventsHandled() {
        return workCycles;
    }

    @Override
    public FlowLifetimes flowLifetimes() {
        return null;
    }

    @Override
    public String transport() {
        return "open-loop";
    }

    @Override
    public RealTimeStats realTimeStats() {
        return stats;
    }

}
