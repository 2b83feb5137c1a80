package io.trimswitch.realtime;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.PortDrop;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.config.Settings;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.PortPoller;
import io.trimswitch.sockets.VxlanPorts;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManager;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * One duty cycle of the live switch, DPDK style, an Agrona {@link Agent} on a thread of its own: it owns a group of
 * pipelines and their ports (AF_PACKET interfaces, UDP/VXLAN sockets). Each turn it reads its ports in batches, copies
 * each frame once into a buffer of its own partition of the pool, and lets it arrive no faster than the port's link
 * allows; it meters arrivals as they come due, bringing its recirculation and egress up to each one first, so that on
 * one thread the switch keeps virtual time's order; then its egress ports send what has left them, straight to their
 * ports, one flush per turn. Packets for another shard's ports cross through that shard's one hand-off ring; the
 * traffic manager's rings are the only other thing between threads. With {@code realtime.idle: poll} it sleeps in
 * its {@link PortPoller} when nothing is inside, until a port has a frame or another thread wakes it.
 */
final class PipelineShard implements Agent, VxlanPorts.FrameHandler, InterfacePorts.FrameHandler, EgressAgent.Departures {
    /** {@link #sleepNanos()}: nothing inside moves with time alone; sleep until a port has data or a wake-up. */
    static final long UNTIL_WOKEN = Long.MAX_VALUE;
    /**
     * How long a thread keeps polling after its last work before it may sleep: a reply or the next frame of a burst
     * usually comes within it, and is then served without the cost of a wake-up.
     */
    private static final long POLL_BEFORE_SLEEP_NANOS = 50_000;
    /** Frames a port holds that arrived faster than its link: a host's burst; beyond this they are dropped as rxOverflow. */
    static final int LINK_BACKLOG_PACKETS = 1024;
    /** A timed sleep shorter than this costs more in its wake-up (a timer, a context switch) than polling through it. */
    private static final long SHORTEST_SLEEP_NANOS = 20_000;

    /** Why the shard itself drops a frame its ports took. */
    private static final List<PortDrop> DROPS = List.of(PortDrop.BUFFER_EXHAUSTED, PortDrop.RX_OVERFLOW, PortDrop.FILTERED,
        PortDrop.BAD_OFFLOAD, PortDrop.RESERVED_GROUP);

    private final int id;
    private final PacketPool pool;
    private final PoolPartition buffers;
    /** This partition's buffers freed on any thread, on their way back. */
    private final HandleRing returned;
    private final AgentEvents.Release release;
    private final AssembledSwitch assembly;
    private final DilatedClock clock;
    private final IngressLinks links;
    /** Per port of this thread: frames waiting for their arrival time, in arrival order. */
    private final TimedIntFifo[] arriving;
    /** This shard's ports, and every port of the switch (where a flood goes); the shard's thread alone changes them. */
    private int[] ownPorts;
    private int[] allPorts;
    /** Per pipeline this shard owns: its egress ports. */
    private final EgressAgent[] egressByPipeline;
    /** Changes the control thread asks of this shard ({@code ctl add-port}), run between two of its turns. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> changes = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final IngressAgent[] ingressByPipeline;
    private final List<IngressAgent> ingress;
    private final List<RecirculationAgent> recirculation;
    private final List<EgressAgent> egress;
    /** This thread's recirculation and egress, brought up to each arrival in the one order. */
    private final CatchUp catchUp;
    /** Null unless the switch bridges. */
    private final LearningBridge bridge;
    private final BridgeNews news;
    /** Null with one thread: packets other threads hand over for this thread's ports, and how it queues them. */
    private final PortHandoff handoff;
    private final TrafficManager handedOver;
    /**
     * Per port: copies flooded from it, frames flooded (each once, so that readers know how many of the copies were
     * extra), and frames dropped by reason; this thread alone writes them.
     */
    private final LivePortCounters[] counters;
    private final Recorder[] dataDepths;
    private final Recorder[] headerDepths;
    private final Histogram[] dataDepthTotals;
    private final Histogram[] headerDepthTotals;
    /** The recorders' interval histograms, handed back to them at each reading. */
    private final Histogram[] dataIntervals;
    private final Histogram[] headerIntervals;
    private final HandleRing.HandleConsumer reclaim;
    /** Null unless some of this shard's ports are UDP sockets. */
    private VxlanPorts sockets;
    /** Where the shard sleeps, and what other threads write to wake it. */
    private final PortPoller poller = new PortPoller();
    /** Null unless some of this thread's ports sit on Linux interfaces. */
    private InterfacePorts interfaces;
    /** Per port: true when it sits on a Linux interface, whose frames carry an offload header in the pool's headroom. */
    private boolean[] onInterface;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports). */
    private final boolean offloadHeaders;
    /** Until every socket of the switch is bound, frames only wait: a frame for a port not yet open must not be lost. */
    private volatile boolean started;
    private volatile boolean stopped;
    /** Set while the thread sleeps in epoll_wait: another thread that queues a packet for it wakes it. */
    private volatile boolean asleep;
    private PipelineShard[] peers = new PipelineShard[0];
    /** Per port: its capture while {@code ctl capture} runs one, else null; the control thread sets it. */
    private java.util.concurrent.atomic.AtomicReferenceArray<LiveCapture> captures = new java.util.concurrent.atomic.AtomicReferenceArray<>(0);
    /** Its ports' egress; replaced whole as a port is added, since other shards read it ({@link #hasQueuedInput()}). */
    private volatile EgressPort[] ownEgress;

    PipelineShard(
        final int id, final PacketPool pool, final PoolPartition buffers, final HandleRing returned, final AgentEvents.Release release,
        final RealTimeDataplane dataplane, final int[] pipelines, final IngressLinks links, final int[] allPorts,
        final LearningBridge bridge, final BridgeNews news, final PortHandoff handoff, final TrafficManager handedOver) {
        this.id = id;
        this.pool = pool;
        this.buffers = buffers;
        this.returned = returned;
        this.release = release;
        this.assembly = dataplane.assembly;
        this.clock = dataplane.clock;
        this.links = links;
        this.allPorts = allPorts.clone();
        this.bridge = bridge;
        this.news = news;
        this.handoff = handoff;
        this.handedOver = handedOver;
        this.ingressByPipeline = new IngressAgent[assembly.pipelines()];
        this.egressByPipeline = new EgressAgent[assembly.pipelines()];
        this.ingress = new java.util.ArrayList<>();
        this.recirculation = new java.util.ArrayList<>();
        this.egress = new java.util.ArrayList<>();
        for (final int pipeline : pipelines) {
            final IngressAgent agent = dataplane.ingress.get(pipeline);
            ingressByPipeline[pipeline] = agent;
            ingress.add(agent);
            egress.add(dataplane.egress.get(pipeline));
            egressByPipeline[pipeline] = dataplane.egress.get(pipeline);
            for (final RecirculationAgent loop : dataplane.recirculation) {
                if (loop.pipeline() == pipeline) {
                    recirculation.add(loop);
                }
            }
        }
        this.catchUp = new CatchUp(recirculation, egress);
        for (final IngressAgent agent : ingress) {
            // Before a packet is metered, this thread's recirculation and egress catch up with its arrival.
            agent.barrier(catchUp);
        }
        this.ownPorts = java.util.Arrays.stream(allPorts).filter(port -> ingressByPipeline[assembly.pipelineOf(port)] != null).toArray();
        this.ownEgress = java.util.Arrays.stream(ownPorts).mapToObj(assembly::port).toArray(EgressPort[]::new);
        final int ports = assembly.ports();
        this.arriving = new TimedIntFifo[ports];
        this.counters = new LivePortCounters[ports];
        this.dataDepths = new Recorder[ports];
        this.headerDepths = new Recorder[ports];
        this.dataDepthTotals = new Histogram[ports];
        this.headerDepthTotals = new Histogram[ports];
        this.dataIntervals = new Histogram[ports];
        this.headerIntervals = new Histogram[ports];
        for (final int port : ownPorts) {
            makeRoom(port);
        }
        this.reclaim = buffers::free;
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
        this.onInterface = new boolean[ports];
    }

    /** A port's counters, its link's backlog and its queues' depth records. */
    private void makeRoom(final int port) {
        counters[port] = new LivePortCounters(assembly.counters(), roleName(), port,
            List.of(CounterType.FLOODED_PACKETS, CounterType.FLOODED_FRAMES), DROPS);
        arriving[port] = new TimedIntFifo(LINK_BACKLOG_PACKETS);
        dataDepths[port] = new Recorder(1 << 20, 2);
        headerDepths[port] = new Recorder(1 << 20, 2);
        dataDepthTotals[port] = new Histogram(1 << 20, 2);
        headerDepthTotals[port] = new Histogram(1 << 20, 2);
    }

    /** From the control thread: runs {@code change} on this shard's thread between two turns; done once it has run. */
    java.util.concurrent.CompletableFuture<Void> runOnThread(final Runnable change) {
        final java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        changes.add(() -> {
            try {
                change.run();
                done.complete(null);
            } catch (final RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        poller.wake();
        return done;
    }

    /**
     * On the shard's thread: takes interface port {@code port}, of one of its pipelines, which the switch did not start
     * with, and attaches it to {@code interfaceName}; floods reach it from now on.
     */
    void adopt(final int port, final String interfaceName) {
        // Once only: a change that timed out for its caller still runs, and the caller may ask again.
        if (contains(ownPorts, port)) {
            return;
        }
        makeRoom(port);
        onInterface[port] = true;
        ownPorts = java.util.Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        final EgressPort[] egressPorts = java.util.Arrays.copyOf(ownEgress, ownEgress.length + 1);
        egressPorts[egressPorts.length - 1] = assembly.port(port);
        ownEgress = egressPorts;
        egressByPipeline[assembly.pipelineOf(port)].add(assembly.port(port));
        interfaces.adopt(port, interfaceName);
        floodAlsoTo(port);
    }

    /** On the shard's thread: floods reach port {@code port} too, which another shard took while the switch runs. */
    void floodAlsoTo(final int port) {
        if (contains(allPorts, port)) {
            return;
        }
        allPorts = java.util.Arrays.copyOf(allPorts, allPorts.length + 1);
        allPorts[allPorts.length - 1] = port;
    }

    private static boolean contains(final int[] ports, final int port) {
        for (final int each : ports) {
            if (each == port) {
                return true;
            }
        }
        return false;
    }

    /** The thread's UDP ports and its interface ports (null for none of either). */
    void sockets(final VxlanPorts ports, final InterfacePorts interfacePorts) {
        this.sockets = ports;
        this.interfaces = interfacePorts;
        if (interfacePorts != null) {
            interfacePorts.wakeOnFrames(poller);
            for (final InterfacePorts.Attachment attachment : interfacePorts.attachments()) {
                onInterface[attachment.port()] = true;
            }
        }
    }

    /** Where the ports' captures appear while they run. */
    void captures(final java.util.concurrent.atomic.AtomicReferenceArray<LiveCapture> all) {
        this.captures = all;
    }

    /** The switch's other threads, which may queue packets for this one's ports while it sleeps. */
    void peers(final PipelineShard[] all) {
        this.peers = java.util.Arrays.stream(all).filter(thread -> thread != this).toArray(PipelineShard[]::new);
    }

    /** The ports whose sockets this thread polls. */
    int[] ports() {
        return ownPorts.clone();
    }

    @Override
    public void onFrame(final int port, final UnsafeBuffer buffer, final int offset, final int length) {
        final long now = clock.nowPicos();
        // A capture sees every frame the port received, those the switch then refuses too, as tcpdump on the link would.
        final LiveCapture capture = port < captures.length() ? captures.get(port) : null;
        if (capture != null) {
            capture.received(now, buffer, offset, length);
        }
        if (length >= EthernetHeader.LENGTH && EthernetHeader.isReservedGroup(EthernetHeader.destination(buffer, offset))) {
            // Whatever the forwarding mode: such a frame is for the link it came on, never for another port.
            counters[port].drop(PortDrop.RESERVED_GROUP);
            return;
        }
        final long arrival = links.arrival(port, length, now);
        if (bridge == null) {
            admit(port, buffer, offset, length, -1, arrival);
            return;
        }
        final long nowNanos = now / 1000;
        final long source = EthernetHeader.source(buffer, offset);
        news.learned(source, port, nowNanos, bridge.learn(source, port, nowNanos));
        final int egress = bridge.lookup(EthernetHeader.destination(buffer, offset), nowNanos);
        if (egress == port) {
            // The destination lives behind the port it came from: nothing to forward.
            counters[port].drop(PortDrop.FILTERED);
            return;
        }
        if (egress != LearningBridge.FLOOD) {
            admit(port, buffer, offset, length, egress, arrival);
            return;
        }
        int copies = 0;
        for (final int other : allPorts) {
            if (other != port) {
                copies++;
                counters[port].increment(CounterType.FLOODED_PACKETS);
                admit(port, buffer, offset, length, other, arrival);
            }
        }
        // The frame itself was counted when it came in; its copies beyond the first are what flooding added.
        if (copies == 0) {
            counters[port].drop(PortDrop.FILTERED);
        } else {
            counters[port].increment(CounterType.FLOODED_FRAMES);
        }
    }

    /** Copies the frame into a buffer of this thread's own and lets it wait for its arrival time. */
    private void admit(final int port, final DirectBuffer buffer, final int offset, final int length, final int egress, final long arrival) {
        final TimedIntFifo waiting = arriving[port];
        if (waiting.size() >= LINK_BACKLOG_PACKETS) {
            counters[port].drop(PortDrop.RX_OVERFLOW);
            return;
        }
        int handle = buffers.allocate();
        if (handle == PacketPool.NO_PACKET) {
            returned.drain(reclaim, Integer.MAX_VALUE);
            handle = buffers.allocate();
            if (handle == PacketPool.NO_PACKET) {
                counters[port].drop(PortDrop.BUFFER_EXHAUSTED);
                return;
            }
        }
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        if (!offloadHeaders) {
            frames.putBytes(at, buffer, offset, length);
        } else if (onInterface[port]) {
            frames.putBytes(at - OffloadHeader.LENGTH, buffer, offset - OffloadHeader.LENGTH, length + OffloadHeader.LENGTH);
        } else {
            OffloadHeader.clear(frames, at - OffloadHeader.LENGTH);
            frames.putBytes(at, buffer, offset, length);
        }
        pool.length(handle, length);
        pool.ingressPort(handle, port);
        pool.egressPort(handle, egress);
        pool.arrivalPicos(handle, arrival);
        waiting.add(arrival, handle);
    }

    @Override
    public void onBatchEnd() {
    }

    /** Its UDP sockets are read here, so their binding too happens at its first turns. */
    @Override
    public int doWork() {
        // Frames read before the switch has started only wait on their links.
        int work = sockets == null ? 0 : sockets.poll();
        if (stopped || !started) {
            return work;
        }
        asleep = false;
        for (Runnable change = changes.poll(); change != null; change = changes.poll()) {
            change.run();
            work++;
        }
        work += interfaces == null ? 0 : interfaces.followLinks() + interfaces.receive();
        final long now = clock.nowPicos();
        work += returned.drain(reclaim, Integer.MAX_VALUE);
        if (news != null) {
            work += news.drain(now / 1000);
        }
        for (int agent = 0; agent < ingress.size(); agent++) {
            // NOTIFYs from the recirculation ports; the pipeline has no receive ring here. By index: no iterator each turn.
            work += ingress.get(agent).doWork();
        }
        if (handoff != null) {
            work += queueHandedOver();
        }
        // Arrivals in time order across this thread's ports; each is metered once everything before it has happened.
        for (int port = nextDue(now); port >= 0; port = nextDue(now)) {
            ingressByPipeline[assembly.pipelineOf(port)].accept(arriving[port].removeHead());
            work++;
        }
        work += catchUp.advanceTo(horizon(now));
        flush();
        if (work > 0 && peers.length > 0) {
            wakePeersWithWork();
        }
        return work;
    }

    /**
     * After a turn in which nothing happened: how long the thread may sleep (host nanoseconds), waking early when a
     * port has data or it is woken. 0: it must keep polling; {@link #UNTIL_WOKEN}: nothing inside it moves with time
     * alone; otherwise until the next instant time alone moves something on (a packet finishing on a slow link).
     */
    long sleepNanos() {
        asleep = true;
        // Dekker's handshake with wakePeersWithWork: either this thread sees the packet queued for it, or the
        // thread that queued it sees this one asleep.
        VarHandle.fullFence();
        if (stopped || !started || hasWorkNow()) {
            asleep = false;
            return 0;
        }
        final long next = nextTimedEventPicos();
        if (next == Long.MAX_VALUE) {
            return UNTIL_WOKEN;
        }
        final long sleep = clock.hostNanos(next - clock.nowPicos());
        if (sleep < SHORTEST_SLEEP_NANOS) {
            asleep = false;
            return 0;
        }
        return sleep;
    }

    /**
     * The first instant time alone moves something inside on: a packet finishing on its port, a frame arriving off
     * its link; Long.MAX_VALUE when nothing is inside.
     */
    private long nextTimedEventPicos() {
        long next = Long.MAX_VALUE;
        for (final int port : ownPorts) {
            if (!arriving[port].isEmpty()) {
                next = Math.min(next, arriving[port].headTime());
            }
        }
        for (final EgressPort port : ownEgress) {
            if (!port.isIdle()) {
                next = Math.min(next, port.busyUntil());
            }
        }
        return next;
    }

    /**
     * Packets the thread can move on now: handed over by another thread, queued at a port that is not sending, or
     * looping through a recirculation port (they move on at the loop's pace, so the thread keeps polling). Packets
     * queued behind one in service wait for it to finish: that instant is a timed event.
     */
    private boolean hasWorkNow() {
        if (handoff != null && !handoff.isEmpty() || sockets != null && sockets.hasUnsent() || !changes.isEmpty()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (port.isIdle() && (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty())) {
                return true;
            }
        }
        for (final RecirculationAgent loop : recirculation) {
            if (!loop.isEmpty() || !loop.queueIsEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Packets in this thread's rings, which any thread may fill: its egress queues and its DoD queues. */
    private boolean hasQueuedInput() {
        if (handoff != null && !handoff.isEmpty()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty()) {
                return true;
            }
        }
        for (final RecirculationAgent loop : recirculation) {
            if (!loop.queueIsEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void wakePeersWithWork() {
        VarHandle.fullFence();
        for (final PipelineShard peer : peers) {
            if (peer.asleep && peer.hasQueuedInput()) {
                peer.asleep = false;
                peer.poller.wake();
            }
        }
    }

    /** Queues what other threads handed over, each at the instant it reached the traffic manager. */
    private int queueHandedOver() {
        int work = 0;
        for (int entry = handoff.poll(); entry != PacketPool.NO_PACKET; entry = handoff.poll()) {
            final int handle = PortHandoff.handle(entry);
            final long time = pool.queuedPicos(handle);
            catchUp.advanceTo(CatchUp.horizon(time, true));
            // A trimmed packet is a header, whichever queue of the stand-in took it (a data queue can hold trimmed packets).
            if (PortHandoff.isHeader(entry) || pool.trimKind(handle) != TrimKind.NONE) {
                handedOver.enqueueHeader(handle, time);
            } else {
                handedOver.enqueueData(handle, time);
            }
            work++;
        }
        return work;
    }

    /** The port whose waiting frame arrives first, if it has arrived by {@code now}; else -1. */
    private int nextDue(final long now) {
        int due = -1;
        long earliest = now;
        for (final int port : ownPorts) {
            final TimedIntFifo waiting = arriving[port];
            if (!waiting.isEmpty() && waiting.headTime() <= earliest) {
                earliest = waiting.headTime();
                due = port;
            }
        }
        return due;
    }

    /** As far as egress may go: up to {@code now}, but never past a frame still waiting to arrive. */
    private long horizon(final long now) {
        long horizon = now;
        for (final int port : ownPorts) {
            if (!arriving[port].isEmpty()) {
                horizon = Math.min(horizon, arriving[port].headTime() - 1);
            }
        }
        return horizon;
    }

    /** Sends what this turn's egress gave the ports. */
    void flush() {
        if (sockets != null) {
            sockets.flush();
        }
        if (interfaces != null) {
            interfaces.flush();
        }
    }

    /** The packet has left its port: its socket sends it with this turn's flush. */
    @Override
    public void departed(final int port, final int handle, final long time) {
        // The queues' depths as each packet leaves: their distribution over the switch's life.
        dataDepths[port].recordValue(assembly.port(port).dataQueue().size());
        headerDepths[port].recordValue(assembly.port(port).headerQueue().size());
        final LiveCapture capture = port < captures.length() ? captures.get(port) : null;
        if (capture != null) {
            capture.sent(time, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
        if (onInterface[port]) {
            // Sent straight from its buffer, which the interface gives back once the kernel has the frame.
            interfaces.send(port, handle);
            return;
        }
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        // A tunnel completes no checksum that an interface's host left to offload: the switch does it, unless trimmed.
        if (!offloadHeaders || pool.trimKind(handle) != TrimKind.NONE
            || OffloadHeader.completeChecksum(frames, at - OffloadHeader.LENGTH, at, pool.length(handle))) {
            sockets.send(port, frames, at, pool.length(handle));
        } else {
            counters[port].drop(PortDrop.BAD_OFFLOAD);
        }
        release.release(handle);
    }

    /** The interface refused the frame after its egress port counted it as sent: it is counted only as the interface's drop. */
    @Override
    public void onRefused(final int port, final int handle) {
        assembly.port(port).counters().transmissionRefused(pool.length(handle), pool.trimKind(handle) != TrimKind.NONE);
    }

    /** Every socket is bound: the thread may forward. */
    void go() {
        started = true;
    }

    /** Stops taking work, and wakes the thread should it sleep; its runner then ends it ({@link #onClose()}). */
    void stop() {
        stopped = true;
        poller.wake();
    }

    /** Wakes the thread if it sleeps: news for it (a link, a control request) waits. */
    void wake() {
        poller.wake();
    }

    /** On the thread, after its last turn: what departed in that turn goes out, and its UDP sockets close. */
    @Override
    public void onClose() {
        flush();
        if (sockets != null) {
            sockets.close();
        }
    }

    /** Once the thread has ended. */
    void closePoller() {
        poller.close();
    }

    /**
     * How the thread idles: with {@code poll}, it keeps polling a moment after its last work, then sleeps in its poller
     * as long as {@link #sleepNanos()} allows; otherwise by the Agrona strategy of the name, never in the kernel.
     */
    IdleStrategy idleStrategy(final Settings.Idle idle) {
        return idle != Settings.Idle.POLL ? AgentPlacement.idleStrategy(idle) : new IdleStrategy() {
            private long lastWorkNanos;

            @Override
            public void idle(final int workCount) {
                if (workCount > 0) {
                    lastWorkNanos = System.nanoTime();
                } else {
                    idle();
                }
            }

            @Override
            public void idle() {
                if (System.nanoTime() - lastWorkNanos > POLL_BEFORE_SLEEP_NANOS) {
                    final long sleep = sleepNanos();
                    if (sleep > 0) {
                        poller.await(sleep == UNTIL_WOKEN ? PortPoller.FOREVER : sleep);
                    }
                }
            }

            @Override
            public void reset() {
            }
        };
    }

    /** Once stopped: every frame still waiting on a link or handed over, to {@code inFlight}. */
    void drainWaiting(final java.util.function.IntConsumer inFlight) {
        for (int entry = handoff == null ? PacketPool.NO_PACKET : handoff.poll(); entry != PacketPool.NO_PACKET; entry = handoff.poll()) {
            inFlight.accept(PortHandoff.handle(entry));
        }
        for (final int port : ownPorts) {
            while (!arriving[port].isEmpty()) {
                inFlight.accept(arriving[port].removeHead());
            }
        }
    }

    /** Once stopped: buffers of this partition still out. */
    int buffersInUse() {
        returned.drain(reclaim, Integer.MAX_VALUE);
        return buffers.inUse();
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    synchronized Histogram depths(final int port, final boolean data) {
        return addInterval(port, data).copy();
    }

    /** The same at {@code percentiles}, into {@code values}, without a copy: what the gauges sample ten times a second. */
    synchronized void depthsAt(final int port, final boolean data, final double[] percentiles, final long[] values) {
        final Histogram total = addInterval(port, data);
        for (int i = 0; i < percentiles.length; i++) {
            values[i] = total.getValueAtPercentile(percentiles[i]);
        }
    }

    /** The port's total so far, with what the recorder took since the last call; its interval histogram reused. */
    private Histogram addInterval(final int port, final boolean data) {
        final Histogram[] intervals = data ? dataIntervals : headerIntervals;
        intervals[port] = (data ? dataDepths : headerDepths)[port].getIntervalHistogram(intervals[port]);
        final Histogram total = data ? dataDepthTotals[port] : headerDepthTotals[port];
        total.add(intervals[port]);
        return total;
    }

    long dropped(final int port, final PortDrop reason) {
        return counters[port].dropped(reason);
    }

    long flooded(final int port) {
        return counters[port].get(CounterType.FLOODED_PACKETS);
    }

    PortPoller poller() {
        return poller;
    }

    @Override
    public String roleName() {
        return "pipelines-" + id;
    }
}
