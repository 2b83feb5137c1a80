package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManager;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One duty cycle of a real-time switch, DPDK style, an Agrona {@link Agent} on a thread of its own: it owns a group of
 * pipelines and their ports ({@link PortList}: generated traffic, sockets or interfaces). Each turn it
 * <ol>
 * <li>receives from its ports, each packet waiting for its arrival time;</li>
 * <li>queues what other shards handed over for its ports;</li>
 * <li>meters arrivals in arrival order, across its ports, bringing its recirculation and egress up to each one first
 * (the catch-up rule, applied here alone), so that on one thread the switch keeps virtual time's order;</li>
 * <li>brings recirculation and egress up to now, never past an arrival still to come;</li>
 * <li>has its ports send what left the egress ports this turn.</li>
 * </ol>
 * Packets for another shard's ports cross through that shard's one hand-off ring; the traffic manager's rings are the
 * only other thing between threads. With {@code realtime.idle: poll} it sleeps in its ports' poller when nothing is
 * inside, until a port has a frame or another thread wakes it.
 *
 * <p>Several shards of a scenario keep virtual time's order ({@link ShardOwnership#ordered()}): each meters its
 * arrivals only up to the time the traffic manager's shard says every NOTIFY before it is in ({@code notifiesBefore}),
 * and hands each packet over its own ring; the traffic manager's shard queues them in arrival order across the rings
 * only up to the earliest arrival some shard has still to meter ({@code meteredBefore}).
 */
public final class PipelineShard implements Agent, EgressStage.Departures {
    /** {@link #sleepNanos()}: nothing inside moves with time alone; sleep until a port has data or a wake-up. */
    public static final long UNTIL_WOKEN = Long.MAX_VALUE;
    /** Frames a port holds that arrived faster than its link: a host's burst; beyond this the ports drop them. */
    public static final int LINK_BACKLOG_PACKETS = 1024;
    /**
     * How long a thread keeps polling after the last frame its ports received before it may sleep: the next frame of a
     * TCP flow, a burst, or a ping or keepalive paced a few milliseconds apart comes within it and is served without the
     * cost of a wake-up (on a virtual machine, 0.1 to 0.2 ms a ping), so traffic above 100 frames/s keeps the thread
     * polling; slower traffic, or none, lets it sleep. At 250 µs, pings 5 ms apart crossed at a third of a minimal C
     * forwarder's speed.
     */
    private static final long POLL_AFTER_TRAFFIC_NANOS = 10_000_000;
    /**
     * How long it keeps polling after any other work: a departure on a slow link (1.12 ms for 1,400 B at 0.01 Gb/s)
     * is the thread's own doing, and the next one's time is known, so it sleeps until then (the ports' poller wakes it
     * to the nanosecond, and sooner for a frame). A quarter of a millisecond after each of them kept a slow port's
     * thread polling half the time.
     */
    private static final long POLL_AFTER_WORK_NANOS = 50_000;
    /** A timed sleep shorter than this costs more in its wake-up (a timer, a context switch) than polling through it. */
    private static final long SHORTEST_SLEEP_NANOS = 20_000;

    private final int id;
    private final PacketPool pool;
    /** Null for a shard that takes no buffers of its own (it only receives packets another shard generated). */
    private final PoolPartition buffers;
    /** This partition's buffers freed on any thread, on their way back. */
    private final HandleRing returned;
    private final HandleRing.HandleConsumer reclaim;
    private final AssembledSwitch assembly;
    private final DilatedClock clock;
    /** Per port of the switch, for this shard's ports: packets waiting for their arrival time, in arrival order. */
    private final TimedIntFifo[] arriving;
    /**
     * Ordered: every packet waiting to arrive at this shard's ports, in the order they arrive. The generator makes
     * them in that order, so one queue keeps it, and the next arrival is its head rather than the least of every
     * port's.
     */
    private final TimedIntFifo inOrder;
    /** Packets in all of {@link #arriving}: with none (generated traffic is metered as it comes), no port is looked at. */
    private int waitingPackets;
    /** This shard's ports; its thread alone changes them. */
    private int[] ownPorts;
    /** Its ports' egress; replaced whole as a port is added, since other shards read it ({@link #hasQueuedInput()}). */
    private volatile EgressPort[] ownEgress;
    private final IngressStage[] ingressByPipeline;
    private final EgressStage[] egressByPipeline;
    private final List<IngressStage> ingress = new ArrayList<>();
    private final List<RecirculationStage> recirculation = new ArrayList<>();
    /** This thread's recirculation and egress, brought up to each arrival in the one order. */
    private final CatchUp catchUp;
    private final ShardedDataplane dataplane;
    /**
     * Whether the shards keep virtual time's order: each meters its arrivals only up to where no NOTIFY can still come
     * from before them, and hands every packet to the traffic manager's shard, which queues it only once no pipeline
     * can still hand it an earlier one (docs/design.md, "Many shards, one order").
     */
    private final boolean ordered;
    private final boolean runsTrafficManager;
    /** The least switch time from a recirculation port's start to the NOTIFY it raises reaching a pipeline. */
    private final long lookahead;
    /** Packets other shards hand over for this one's ports (none with one shard); ordered, one ring per shard. */
    private final PortHandoff[] inbound;
    /** Per inbound ring, the entry at its head, taken but not yet queued; {@link PacketPool#NO_PACKET}: none. */
    private final int[] inboundHeads;
    private final TrafficManager handedOver;
    /** Ordered: every arrival at this shard's ports before this switch time has been metered and handed on. */
    private final PublishedTime meteredBefore = new PublishedTime(Long.MIN_VALUE);
    /** Everything this shard does up to this switch time is done: a run may end once every shard has reached its end. */
    private final PublishedTime doneThrough = new PublishedTime(Long.MIN_VALUE);
    /** Ordered, on the traffic manager's shard: every NOTIFY due before this switch time is in its inbox. */
    private final PublishedTime notifiesBefore = new PublishedTime(Long.MIN_VALUE);
    /** Commands in a turn at most: a burst of link news (a topology torn down) does not hold up forwarding. */
    private static final int COMMANDS_PER_TURN = 64;

    /**
     * What other threads ask of this shard, carried out at the start of a turn. Its poll allocates nothing when empty;
     * an offer allocates a node, which a rare command may.
     */
    private final ManyToOneConcurrentLinkedQueue<ShardCommand> commands = new ManyToOneConcurrentLinkedQueue<>();
    private PortList ports;
    /** Until every port of the switch is open, frames only wait: a frame for a port not yet open must not be lost. */
    private volatile boolean started;
    private volatile boolean stopped;
    /** Set while the thread sleeps: another thread that queues a packet for it wakes it. */
    private volatile boolean asleep;
    /**
     * Whether a frame arrived from outside in the last turn, which keeps the thread polling longest; counted at
     * {@link #arrive}, since a port's own poll also counts the sends it completes.
     */
    private boolean receivedLastTurn;
    /** Frames that arrived at this shard's ports so far. */
    private long arrivals;
    private PipelineShard[] peers = new PipelineShard[0];
    private long maxLagPicos;
    /** Switch time of this run's last turn (MIN_VALUE: none yet), and the longest stretch between two turns. */
    private long lastTurnPicos = Long.MIN_VALUE;
    private long longestTurnGapPicos;
    private long workCycles;

    /**
     * @param inbound    the rings other shards hand this one's packets over on (none: it queues only its own)
     * @param handedOver the traffic manager's view it queues handed-over packets through, or null
     * @param lookahead  switch time a NOTIFY takes at the least
     */
    PipelineShard(
        final int id, final ShardedDataplane dataplane, final PoolPartition buffers, final HandleRing returned,
        final PortHandoff[] inbound, final TrafficManager handedOver, final long lookahead) {
        this.id = id;
        this.pool = dataplane.pool;
        this.buffers = buffers;
        this.returned = returned;
        this.reclaim = buffers == null ? handle -> {
        } : buffers::free;
        this.assembly = dataplane.assembly;
        this.clock = dataplane.clock;
        this.dataplane = dataplane;
        final ShardOwnership owners = dataplane.ownership;
        this.ordered = owners.ordered();
        this.runsTrafficManager = ordered && owners.trafficManagerShard() == id;
        this.lookahead = lookahead;
        this.inbound = inbound;
        this.inboundHeads = new int[inbound.length];
        java.util.Arrays.fill(inboundHeads, PacketPool.NO_PACKET);
        this.handedOver = handedOver;
        this.ingressByPipeline = new IngressStage[assembly.pipelines()];
        this.egressByPipeline = new EgressStage[assembly.pipelines()];
        final List<EgressStage> egress = new ArrayList<>();
        for (int pipeline = 0; pipeline < assembly.pipelines(); pipeline++) {
            if (owners.ingressShard(pipeline) == id) {
                ingressByPipeline[pipeline] = dataplane.ingress.get(pipeline);
                ingress.add(ingressByPipeline[pipeline]);
            }
            if (owners.egressShardOfPipeline(pipeline) == id) {
                egressByPipeline[pipeline] = dataplane.egress.get(pipeline);
                egress.add(egressByPipeline[pipeline]);
            }
        }
        for (int port = 0; port < dataplane.recirculation.length; port++) {
            if (dataplane.recirculation[port] != null && owners.recirculationShard(port) == id) {
                recirculation.add(dataplane.recirculation[port]);
            }
        }
        // Recirculation before egress: a header back from its loop is in its queue when egress chooses.
        this.catchUp = new CatchUp(recirculation, egress);
        this.ownPorts = java.util.Arrays.stream(dataplane.attached).filter(port -> owners.ingressShardOfPort(port) == id).toArray();
        this.ownEgress = java.util.Arrays.stream(dataplane.attached).filter(port -> owners.egressShard(port) == id)
            .mapToObj(assembly::port).toArray(EgressPort[]::new);
        this.arriving = new TimedIntFifo[assembly.ports()];
        this.inOrder = ordered ? new TimedIntFifo(LINK_BACKLOG_PACKETS * Math.max(1, ownPorts.length)) : null;
        for (final int port : ownPorts) {
            arriving[port] = new TimedIntFifo(LINK_BACKLOG_PACKETS);
        }
    }

    /** Its ports, before the shard's thread starts. */
    public void ports(final PortList list) {
        this.ports = list;
    }

    /** Its ports: their kinds, their tap and where the shard sleeps. */
    public PortList ports() {
        return ports;
    }

    /** The ports this shard owns. */
    public int[] ownPorts() {
        return ownPorts.clone();
    }

    public boolean owns(final int port) {
        return port < arriving.length && arriving[port] != null;
    }

    /** A free buffer of this shard's partition, or {@link PacketPool#NO_PACKET}. */
    public int allocate() {
        int handle = buffers.allocate();
        if (handle == PacketPool.NO_PACKET) {
            returned.drain(reclaim, Integer.MAX_VALUE);
            handle = buffers.allocate();
        }
        return handle;
    }

    /** Whether port {@code port}'s link holds fewer than {@link #LINK_BACKLOG_PACKETS} frames not yet arrived. */
    public boolean hasRoom(final int port) {
        return ordered ? inOrder.size() < LINK_BACKLOG_PACKETS * ownPorts.length : arriving[port].size() < LINK_BACKLOG_PACKETS;
    }

    /** Packet {@code handle} arrives at its own port {@code port} at {@code arrival}; it is metered in arrival order. */
    public void arrive(final int port, final int handle, final long arrival) {
        pool.arrivalPicos(handle, arrival);
        (ordered ? inOrder : arriving[port]).add(arrival, handle);
        waitingPackets++;
        arrivals++;
    }

    /**
     * Meters {@code handle} now, its arrival due: for ports whose packets come in arrival order and are due as they
     * come (generated traffic).
     */
    public void meter(final int handle) {
        final IngressStage own = ingressByPipeline[assembly.pipelineOf(pool.ingressPort(handle))];
        // A frame of another shard's port, read here on one of the port's receive queues: this shard's pipeline meters it.
        (own != null ? own : ingress.get(0)).accept(handle);
    }

    /** From any thread: the shard carries {@code command} out at the start of its next turn; it is woken if asleep. */
    public void enqueue(final ShardCommand command) {
        commands.offer(command);
        ports.wake();
    }

    /** The same, for a caller that waits: done once the command has been carried out, or failed with what it threw. */
    public CompletableFuture<Void> submit(final ShardCommand command) {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(() -> {
            try {
                command.carryOut();
                done.complete(null);
            } catch (final RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** On the shard's thread: takes port {@code port}, of one of its pipelines, which the switch did not start with. */
    public void addPort(final int port) {
        if (owns(port)) {
            return;
        }
        arriving[port] = new TimedIntFifo(LINK_BACKLOG_PACKETS);
        ownPorts = java.util.Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        final EgressPort[] egressPorts = java.util.Arrays.copyOf(ownEgress, ownEgress.length + 1);
        egressPorts[egressPorts.length - 1] = assembly.port(port);
        ownEgress = egressPorts;
        egressByPipeline[assembly.pipelineOf(port)].add(assembly.port(port));
    }

    /**
     * Before its thread starts: frames of {@code port}, another shard's, arrive here too, read on receive queues of the
     * port this shard reads ({@link ShardOwnership#receiveShard}); its pipeline meters them, and the port's egress stays
     * with its owner.
     */
    public void receiveFor(final int port) {
        if (!owns(port)) {
            arriving[port] = new TimedIntFifo(LINK_BACKLOG_PACKETS);
            ownPorts = java.util.Arrays.copyOf(ownPorts, ownPorts.length + 1);
            ownPorts[ownPorts.length - 1] = port;
        }
    }

    /** The switch's other shards, which may queue packets for this one's ports while it sleeps. */
    void peers(final PipelineShard[] all) {
        this.peers = java.util.Arrays.stream(all).filter(shard -> shard != this).toArray(PipelineShard[]::new);
    }

    @Override
    public int doWork() {
        // Frames read before the switch has started only wait on their links.
        final long arrivalsBefore = arrivals;
        int work = ports.poll();
        if (stopped || !started) {
            receivedLastTurn = arrivals != arrivalsBefore;
            return work;
        }
        asleep = false;
        work += carryOutCommands();
        work += ports.receive();
        receivedLastTurn = arrivals != arrivalsBefore;
        final long now = clock.nowPicos();
        if (now >= 0) {
            // How long the thread went without a turn: the host's preemptions and pauses, which no dilation hides below them.
            longestTurnGapPicos = Math.max(longestTurnGapPicos, lastTurnPicos == Long.MIN_VALUE ? 0 : now - lastTurnPicos);
            lastTurnPicos = now;
        }
        work += returned == null ? 0 : returned.drain(reclaim, Integer.MAX_VALUE);
        if (ordered) {
            work += meterInOrder(now);
            if (runsTrafficManager) {
                work += queueInOrder(now);
            }
            if (work == 0) {
                // Waiting on another shard, which may share this core: let it run rather than spin through its turn.
                Thread.yield();
            }
        } else {
            work += forward(now);
        }
        ports.flush();
        if (work > 0) {
            workCycles++;
            if (peers.length > 0) {
                wakePeersWithWork();
            }
        }
        return work;
    }

    private int carryOutCommands() {
        int done = 0;
        for (ShardCommand command = commands.poll(); command != null; command = done < COMMANDS_PER_TURN ? commands.poll() : null) {
            command.carryOut();
            done++;
        }
        return done;
    }

    /** One shard, or a live switch's: meters what has arrived and queues what was handed over, as it comes. */
    private int forward(final long now) {
        int work = 0;
        for (int stage = 0; stage < ingress.size(); stage++) {
            // NOTIFYs from the recirculation ports. By index: no iterator each turn.
            work += ingress.get(stage).drainInbox();
        }
        for (final PortHandoff ring : inbound) {
            for (int entry = ring.poll(); entry != PacketPool.NO_PACKET; entry = ring.poll()) {
                queueHandedOver(entry);
                work++;
            }
        }
        // Arrivals in time order across this shard's ports; each is metered once everything before it has happened.
        for (int port = nextDue(now); port >= 0; port = nextDue(now)) {
            work += meterHead(port, now);
        }
        final long upTo = Math.min(horizon(now), ports.horizon(now));
        work += catchUp.advanceTo(upTo);
        doneThrough.set(upTo);
        return work;
    }

    /**
     * Ordered: meters the arrivals due by {@code now} for which every NOTIFY due before them is in, then publishes how
     * far its arrivals are all metered. Its pipelines queue nothing: they hand every packet to the traffic manager's
     * shard, in the order they meter them.
     */
    private int meterInOrder(final long now) {
        // Read before the inboxes are drained: every NOTIFY it promises is in them by then.
        final long notifiesIn = dataplane.shard(dataplane.ownership.trafficManagerShard()).notifiesBefore.get();
        int work = 0;
        for (int stage = 0; stage < ingress.size(); stage++) {
            work += ingress.get(stage).drainInbox();
        }
        final long meterUpTo = Math.min(now, notifiesIn);
        while (!inOrder.isEmpty() && inOrder.headTime() <= meterUpTo) {
            final int handle = inOrder.removeHead();
            waitingPackets--;
            maxLagPicos = Math.max(maxLagPicos, now - pool.arrivalPicos(handle));
            meter(handle);
            work++;
        }
        final long received = ports.horizon(now);
        final long metered = Math.min(received == Long.MAX_VALUE ? received : received + 1, inOrder.isEmpty() ? Long.MAX_VALUE : inOrder.headTime());
        meteredBefore.set(metered);
        if (!runsTrafficManager) {
            doneThrough.set(Math.min(now, metered - 1));
        }
        return work;
    }

    /**
     * Ordered, on the traffic manager's shard: queues the packets every shard handed over, in arrival order across
     * them, up to the earliest arrival some shard has still to meter; brings recirculation and egress up to just before
     * it; then publishes up to when every NOTIFY is in the pipelines' inboxes.
     */
    private int queueInOrder(final long now) {
        long bound = Long.MAX_VALUE;
        for (int shard = 0; shard < dataplane.shards(); shard++) {
            // Read before the rings: what a shard promises is on its ring by then.
            bound = Math.min(bound, dataplane.shard(shard).meteredBefore.get());
        }
        int work = 0;
        for (int ring = nextInbound(bound); ring >= 0; ring = nextInbound(bound)) {
            final int entry = inboundHeads[ring];
            inboundHeads[ring] = PacketPool.NO_PACKET;
            maxLagPicos = Math.max(maxLagPicos, now - pool.queuedPicos(PortHandoff.handle(entry)));
            queueHandedOver(entry);
            work++;
        }
        final long upTo = Math.min(now, bound == Long.MIN_VALUE ? bound : bound - 1);
        if (upTo == Long.MIN_VALUE) {
            return work;
        }
        work += catchUp.advanceTo(upTo);
        // Every recirculation port has started what it would by upTo: a NOTIFY still to come is due lookahead later.
        notifiesBefore.set(upTo + 1 + lookahead);
        doneThrough.set(upTo);
        return work;
    }

    /** The inbound ring whose head packet reached the traffic manager first, before {@code bound}; else -1. */
    private int nextInbound(final long bound) {
        int next = -1;
        long nextTime = bound;
        long nextOrder = Long.MAX_VALUE;
        for (int ring = 0; ring < inbound.length; ring++) {
            if (inboundHeads[ring] == PacketPool.NO_PACKET) {
                inboundHeads[ring] = inbound[ring].poll();
                if (inboundHeads[ring] == PacketPool.NO_PACKET) {
                    continue;
                }
            }
            final int handle = PortHandoff.handle(inboundHeads[ring]);
            final long time = pool.queuedPicos(handle);
            if (time < nextTime || time == nextTime && next >= 0 && pool.arrivalOrder(handle) < nextOrder) {
                next = ring;
                nextTime = time;
                nextOrder = pool.arrivalOrder(handle);
            }
        }
        return next;
    }

    /** Meters the packet at the head of {@code port}'s arrivals; returns 1. */
    private int meterHead(final int port, final long now) {
        final int handle = arriving[port].removeHead();
        waitingPackets--;
        maxLagPicos = Math.max(maxLagPicos, now - pool.arrivalPicos(handle));
        meter(handle);
        return 1;
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

    /** The first instant time alone moves something inside on: a packet finishing on its port, a frame arriving off its link. */
    private long nextTimedEventPicos() {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < ownPorts.length && waitingPackets > 0; i++) {
            final int port = ownPorts[i];
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
        if (hasInbound() || ports.hasUnsent() || !commands.isEmpty()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (port.isIdle() && (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty())) {
                return true;
            }
        }
        for (final RecirculationStage loop : recirculation) {
            if (!loop.isEmpty() || !loop.queueIsEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Packets in this shard's rings, which any thread may fill: its hand-off ring, its egress queues and its DoD queues. */
    private boolean hasQueuedInput() {
        if (hasInbound()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty()) {
                return true;
            }
        }
        for (final RecirculationStage loop : recirculation) {
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
                peer.ports.wake();
            }
        }
    }

    /** Packets another shard handed over, not yet queued. */
    private boolean hasInbound() {
        for (int ring = 0; ring < inbound.length; ring++) {
            if (inboundHeads[ring] != PacketPool.NO_PACKET || !inbound[ring].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Queues a packet another shard handed over at the instant it reached the traffic manager, as it would have been. */
    private void queueHandedOver(final int entry) {
        final int handle = PortHandoff.handle(entry);
        final long time = pool.queuedPicos(handle);
        catchUp.advanceTo(CatchUp.horizon(time, true));
        // A trimmed packet is a header, whichever queue of the stand-in took it (a data queue can hold trimmed packets).
        if (PortHandoff.isHeader(entry) || pool.trimKind(handle) != TrimKind.NONE) {
            handedOver.enqueueHeader(handle, time);
        } else {
            handedOver.enqueueData(handle, time);
        }
    }

    /** The port whose waiting packet arrives first, if it has arrived by {@code now}; else -1. */
    private int nextDue(final long now) {
        if (waitingPackets == 0) {
            return -1;
        }
        int due = -1;
        long earliest = now;
        long order = Long.MAX_VALUE;
        for (final int port : ownPorts) {
            final TimedIntFifo waiting = arriving[port];
            // At one instant, in the order the source made them, as every clock and shard takes them.
            if (!waiting.isEmpty() && (waiting.headTime() < earliest
                || waiting.headTime() == earliest && pool.arrivalOrder(waiting.headValue()) < order)) {
                earliest = waiting.headTime();
                order = pool.arrivalOrder(waiting.headValue());
                due = port;
            }
        }
        return due;
    }

    /** As far as egress may go: up to {@code now}, but never past a packet still waiting to arrive. */
    private long horizon(final long now) {
        if (waitingPackets == 0) {
            return now;
        }
        long horizon = now;
        for (final int port : ownPorts) {
            if (!arriving[port].isEmpty()) {
                horizon = Math.min(horizon, arriving[port].headTime() - 1);
            }
        }
        return horizon;
    }

    /** Before each arrival is metered (an ingress stage asks): recirculation and egress up to it, in virtual time's order. */
    void catchUpTo(final long arrival) {
        catchUp.advanceTo(CatchUp.horizon(arrival, true));
    }

    /** The packet has left its port: the ports send it (or record it). */
    @Override
    public void departed(final int port, final int handle, final long time) {
        ports.departed(port, handle, time);
    }

    /** Every port of the switch is open: the shard may forward. */
    public void go() {
        started = true;
    }

    /** Stops taking work, and wakes the thread should it sleep; its runner then ends it ({@link #onClose()}). */
    public void stop() {
        stopped = true;
        ports.wake();
    }

    /** On the thread, after its last turn: what departed in that turn goes out, and the ports close. */
    @Override
    public void onClose() {
        ports.flush();
        ports.close();
    }

    /**
     * How the thread idles: with {@code poll}, it keeps polling a moment after its last work, then sleeps in its ports'
     * poller as long as {@link #sleepNanos()} allows; otherwise by the Agrona strategy of the name, never in the kernel.
     */
    public IdleStrategy idleStrategy(final Settings.Idle idle) {
        switch (idle) {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy();
            case SLEEP:
                return new SleepingIdleStrategy();
            case POLL:
                return new PollThenSleep();
            default:
                throw new IllegalStateException("idle " + idle);
        }
    }

    /** Polls a while after the last frame received and a moment after any other work, then sleeps in the ports' poller. */
    private final class PollThenSleep implements IdleStrategy {
        private long lastWorkNanos;
        private long lastTrafficNanos;

        @Override
        public void idle(final int workCount) {
            if (workCount > 0) {
                lastWorkNanos = System.nanoTime();
                if (receivedLastTurn) {
                    lastTrafficNanos = lastWorkNanos;
                }
            } else {
                idle();
            }
        }

        @Override
        public void idle() {
            final long now = System.nanoTime();
            if (now - lastWorkNanos > POLL_AFTER_WORK_NANOS && now - lastTrafficNanos > POLL_AFTER_TRAFFIC_NANOS) {
                final long sleep = sleepNanos();
                if (sleep > 0) {
                    ports.await(sleep);
                }
            }
        }

        @Override
        public void reset() {
        }
    }

    /** Once stopped: every packet still waiting to arrive or handed over, to {@code inFlight}. */
    void drainWaiting(final java.util.function.IntConsumer inFlight) {
        for (int ring = 0; ring < inbound.length; ring++) {
            if (inboundHeads[ring] != PacketPool.NO_PACKET) {
                inFlight.accept(PortHandoff.handle(inboundHeads[ring]));
                inboundHeads[ring] = PacketPool.NO_PACKET;
            }
            for (int entry = inbound[ring].poll(); entry != PacketPool.NO_PACKET; entry = inbound[ring].poll()) {
                inFlight.accept(PortHandoff.handle(entry));
            }
        }
        for (final int port : ownPorts) {
            while (!arriving[port].isEmpty()) {
                inFlight.accept(arriving[port].removeHead());
                waitingPackets--;
            }
        }
        while (inOrder != null && !inOrder.isEmpty()) {
            inFlight.accept(inOrder.removeHead());
            waitingPackets--;
        }
    }

    /** Buffers of this shard's partition still out (those on their way back are taken back first). */
    public int buffersInUse() {
        if (buffers == null) {
            return 0;
        }
        returned.drain(reclaim, Integer.MAX_VALUE);
        return buffers.inUse();
    }

    /** Everything this shard does up to this switch time is done. */
    public long doneThrough() {
        return doneThrough.get();
    }

    /** How late, at worst, a packet was metered after it had arrived. */
    public long maxLagPicos() {
        return maxLagPicos;
    }

    /** The longest switch time between two of this run's turns, from switch time zero to the run's end. */
    public long longestTurnGapPicos() {
        return longestTurnGapPicos;
    }

    /** Turns on which the shard did something. */
    public long workCycles() {
        return workCycles;
    }

    void reset() {
        maxLagPicos = 0;
        lastTurnPicos = Long.MIN_VALUE;
        longestTurnGapPicos = 0;
        meteredBefore.set(Long.MIN_VALUE);
        notifiesBefore.set(Long.MIN_VALUE);
        doneThrough.set(Long.MIN_VALUE);
        java.util.Arrays.fill(inboundHeads, PacketPool.NO_PACKET);
        workCycles = 0;
        stopped = false;
        started = false;
        asleep = false;
        if (returned != null) {
            returned.drain(reclaim, Integer.MAX_VALUE);
        }
    }

    @Override
    public String roleName() {
        return roleName(id);
    }

    /** Shard {@code shard}'s name as its thread and the counters it writes go by. */
    public static String roleName(final int shard) {
        return "pipelines-" + shard;
    }
}
