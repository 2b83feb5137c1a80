package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.CompletableFuture;

/**
 * One duty cycle of a real-time switch, DPDK style, an Agrona {@link Agent} on a thread of its own: it owns a group of
 * pipelines and their ports ({@link PortList}: generated traffic, sockets or interfaces). Each turn it
 * <ol>
 * <li>carries out what other threads asked of it ({@link CommandQueue});</li>
 * <li>receives from its ports, each packet waiting for its arrival time;</li>
 * <li>takes back its buffers that other threads freed;</li>
 * <li>forwards by its {@link ShardOrder}: queues what other shards handed over, meters arrivals in arrival order and
 * brings recirculation and egress up to each, then up to now;</li>
 * <li>has its ports send what left the egress ports this turn, and wakes the peers it left work
 * ({@link ShardWakeUp}).</li>
 * </ol>
 * What it drives are its parts ({@link ShardParts}); how it orders them, how it idles ({@link IdlePolicy}) and how it
 * is woken are given to it. Another thread changes it only through its command queue; packets cross between shards
 * on rings.
 */
public final class PipelineShard implements Agent {
    /** {@link #sleepNanos()}: nothing inside moves with time alone; sleep until a port has data or a wake-up. */
    public static final long UNTIL_WOKEN = Long.MAX_VALUE;
    /** Frames a port holds that arrived faster than its link: a host's burst; beyond this the ports drop them. */
    public static final int LINK_BACKLOG_PACKETS = 1024;
    /** A timed sleep shorter than this costs more in its wake-up (a timer, a context switch) than polling through it. */
    private static final long SHORTEST_SLEEP_NANOS = 20_000;
    /** How long a shard sleeps at most while a port waits for buffers to lend the kernel: 1 ms. */
    static final long BUFFERS_AWAITED_NANOS = 1_000_000;

    private final int id;
    private final DilatedClock clock;
    private final ShardBuffers buffers;
    private final ShardParts parts;
    private final ShardOrder order;
    private final ShardWakeUp wakeUp;
    private final CommandQueue commands;
    private final PollThenSleep.Rest rest = new Rest();
    private PortList ports;
    /** Until every port of the switch is open, frames only wait: a frame for a port not yet open must not be lost. */
    private volatile boolean started;
    private volatile boolean stopped;
    /**
     * Whether a frame arrived from outside in the last turn, which keeps the thread polling longest; counted at
     * {@link #arrive}, since a port's own poll also counts the sends it completes.
     */
    private boolean receivedLastTurn;
    /** Frames that arrived at this shard's ports so far. */
    private long arrivals;
    /** Switch time of this run's last turn (MIN_VALUE: none yet), and the longest stretch between two turns. */
    private long lastTurnPicos = Long.MIN_VALUE;
    /** Host time of this turn's one clock read, which the idle strategy goes by too. */
    private long turnNanos;
    /** Switch time up to which the last turn metered arrivals (MIN_VALUE: none yet). */
    private long meteredThroughPicos = Long.MIN_VALUE;
    private long longestTurnGapPicos;
    private long workCycles;

    PipelineShard(final int id, final DilatedClock clock, final ShardBuffers buffers, final ShardParts parts, final ShardOrder order,
        final ShardWakeUp wakeUp) {
        this.id = id;
        this.clock = clock;
        this.buffers = buffers;
        this.parts = parts;
        this.order = order;
        this.wakeUp = wakeUp;
        this.commands = new CommandQueue(wakeUp);
    }

    /** Its ports, before the shard's thread starts: they send what leaves its egress ports, and it sleeps in them. */
    public void ports(final PortList list) {
        this.ports = list;
        wakeUp.sleepsIn(list);
        parts.departTo(list::departed);
    }

    /** Its ports: their kinds, their tap and where the shard sleeps. */
    public PortList ports() {
        return ports;
    }

    /** The ports this shard owns. */
    public int[] ownPorts() {
        return parts.ownPorts().clone();
    }

    public boolean owns(final int port) {
        return parts.owns(port);
    }

    /** A free buffer of this shard's partition, or {@link PacketPool#NO_PACKET}. */
    public int allocate() {
        return buffers.allocate();
    }

    /** A free buffer of this shard's piece of the pool's second class (frames a kernel receives into), or {@link PacketPool#NO_PACKET}. */
    public int allocateFrame() {
        return buffers.allocateFrame();
    }

    /** Whether port {@code port}'s link holds fewer than {@link #LINK_BACKLOG_PACKETS} frames not yet arrived. */
    public boolean hasRoom(final int port) {
        return order.hasRoom(port);
    }

    /** Packet {@code handle} arrives at its own port {@code port} at {@code arrival}; it is metered in arrival order. */
    public void arrive(final int port, final int handle, final long arrival) {
        order.arrive(port, handle, arrival);
        arrivals++;
    }

    /**
     * Meters {@code handle} now, its arrival due: for ports whose packets come in arrival order and are due as they
     * come (generated traffic).
     */
    public void meter(final int handle) {
        order.meter(handle);
    }

    /** The one door other threads have into this shard. */
    public CommandQueue commands() {
        return commands;
    }

    /** From any thread: the shard carries {@code command} out at the start of its next turn; it is woken if asleep. */
    public void enqueue(final ShardCommand command) {
        commands.enqueue(command);
    }

    /** The same, for a caller that waits: done once the command has been carried out, or failed with what it threw. */
    public CompletableFuture<Void> submit(final ShardCommand command) {
        return commands.submit(command);
    }

    /** On the shard's thread: takes port {@code port}, of one of its pipelines, which the switch did not start with. */
    public void addPort(final int port) {
        if (owns(port)) {
            return;
        }
        order.addPort(port);
        parts.addPort(port);
    }

    /**
     * Before its thread starts: frames of {@code port}, another shard's, arrive here too, read on receive queues of the
     * port this shard reads ({@link ShardOwnership#receiveShard}); its pipeline meters them, and the port's egress stays
     * with its owner.
     */
    public void receiveFor(final int port) {
        if (!owns(port)) {
            order.addPort(port);
            parts.receiveFor(port);
        }
    }

    @Override
    public int doWork() {
        // Frames read before the switch has started only wait on their links.
        final long arrivalsBefore = arrivals;
        int work = ports.poll();
        if (stopped || !started) {
            receivedLastTurn = arrivals != arrivalsBefore;
            turnNanos = clock.hostNow();
            return work;
        }
        wakeUp.awake();
        work += commands.carryOut();
        work += ports.receive();
        receivedLastTurn = arrivals != arrivalsBefore;
        turnNanos = clock.hostNow();
        final long now = clock.picosAt(turnNanos);
        if (now >= 0) {
            // How long the thread went without a turn: the host's preemptions and pauses, which no dilation hides below them.
            longestTurnGapPicos = Math.max(longestTurnGapPicos, lastTurnPicos == Long.MIN_VALUE ? 0 : now - lastTurnPicos);
            lastTurnPicos = now;
        }
        work += buffers.reclaim();
        // Not past a port that still holds frames it received earlier than now (PortKind#horizon): they come next turn.
        meteredThroughPicos = Math.max(meteredThroughPicos, Math.min(now, ports.horizon(now)));
        work += order.advance(now, ports);
        if (work == 0) {
            order.idleTurn();
        }
        ports.flush();
        if (work > 0) {
            workCycles++;
            wakeUp.wakePeersWithWork();
        }
        return work;
    }

    /**
     * After a turn in which nothing happened: how long the thread may sleep (host nanoseconds), waking early when a
     * port has data or it is woken. 0: it must keep polling; {@link #UNTIL_WOKEN}: nothing inside it moves with time
     * alone; otherwise until the next instant time alone moves something on (a packet finishing on a slow link).
     */
    long sleepNanos() {
        wakeUp.goingToSleep();
        if (stopped || !started || ports.hasUnsent() || !commands.isEmpty() || parts.hasWorkNow()) {
            wakeUp.awake();
            return 0;
        }
        // The first instant time alone moves something inside on: a frame arriving off its link, a packet finishing.
        final long next = Math.min(order.nextArrivalPicos(), parts.nextDeparturePicos());
        // A port whose buffers are all out gets no frame to wake the shard with: it looks again when some may be back.
        final long longest = ports.waitsForBuffers() ? BUFFERS_AWAITED_NANOS : UNTIL_WOKEN;
        if (next == Long.MAX_VALUE) {
            return longest;
        }
        final long sleep = clock.hostNanos(next - clock.nowPicos());
        if (sleep < SHORTEST_SLEEP_NANOS) {
            wakeUp.awake();
            return 0;
        }
        return Math.min(sleep, longest);
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

    /** How the thread idles: {@code realtime.idle}'s strategy, asking this shard how long it may sleep. */
    public IdleStrategy idleStrategy(final Settings.RealTime realtime) {
        return IdlePolicy.of(realtime, rest);
    }

    /** What {@link PollThenSleep} asks of this shard. */
    private final class Rest implements PollThenSleep.Rest {
        @Override
        public long turnNanos() {
            return turnNanos;
        }

        @Override
        public boolean receivedLastTurn() {
            return receivedLastTurn;
        }

        @Override
        public boolean everyPortStamped() {
            return ports.everyPortStamped();
        }

        @Override
        public long sleepNanos() {
            return PipelineShard.this.sleepNanos();
        }

        @Override
        public void await(final long nanos) {
            ports.await(nanos);
        }
    }

    /** Once stopped: every packet still waiting to arrive or handed over, to {@code inFlight}. */
    void drainWaiting(final java.util.function.IntConsumer inFlight) {
        parts.inbound().drainTo(inFlight);
        order.drainWaiting(inFlight);
    }

    /** Buffers of this shard's partition still out (those on their way back are taken back first). */
    public int buffersInUse() {
        return buffers.inUse();
    }

    /** Everything this shard does up to this switch time is done. */
    public long doneThrough() {
        return parts.doneThrough().get();
    }

    /** How late, at worst, a packet was metered after it had arrived. */
    public long maxLagPicos() {
        return parts.maxLagPicos();
    }

    /** The longest switch time between two of this run's turns, from switch time zero to the run's end. */
    public long longestTurnGapPicos() {
        return longestTurnGapPicos;
    }

    /**
     * On the shard's thread: the switch time up to which its last turn metered every arrival (MIN_VALUE before the
     * first): a frame received now may arrive no earlier than just after it, or virtual time would run backwards.
     */
    public long meteredThroughPicos() {
        return meteredThroughPicos;
    }

    /** Turns on which the shard did something. */
    public long workCycles() {
        return workCycles;
    }

    void reset() {
        lastTurnPicos = Long.MIN_VALUE;
        meteredThroughPicos = Long.MIN_VALUE;
        longestTurnGapPicos = 0;
        parts.reset();
        order.reset();
        workCycles = 0;
        stopped = false;
        started = false;
        wakeUp.awake();
        buffers.reclaim();
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
