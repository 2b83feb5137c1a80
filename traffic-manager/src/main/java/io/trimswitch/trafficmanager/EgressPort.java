package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.LinkRate;

/**
 * One egress port of the traffic manager: a small low-priority data queue, a high-priority header
 * queue, the scheduler between them, and a transmitter that serialises one packet at a time at
 * the port's rate. It owns its timing, whichever clock drives it, as an htsim queue owns its next event:
 * {@link #advanceTo} ends what is due and starts what follows, {@link #nextDue} says when next. The engine
 * only wakes it: virtual time at that instant or before it queues for the port, a shard once a turn.
 */
public final class EgressPort {
    /** Where a packet goes once its last bit has left its port; the packet's buffer goes with it. */
    @FunctionalInterface
    public interface Departures {
        void departed(int port, int handle, long time);
    }

    private final int id;
    /** Replaced by a running switch's control thread ({@link #rate(LinkRate)}); read at each transmission. */
    private volatile LinkRate rate;
    private final PacketPool pool;
    /** Queue 0, the only one unless traffic classes give the port more. */
    private final HandleQueue dataQueue;
    private final HandleQueue[] dataQueues;
    /** Whether queue 0 is the only data queue: read from here, not from the array's length, on each transmission. */
    private final boolean oneDataQueue;
    private final HandleQueue headerQueue;
    private final HeaderDataScheduler scheduler;
    private final DataQueueScheduler dataScheduler;
    private final PortCounters counters;
    private int inService = PacketPool.NO_PACKET;
    /** The data queue the packet in service came from, or null: a header. */
    private HandleQueue servedQueue;
    /** ECN marking at the data queues, or null: none (the default). */
    private EcnMarking ecn;
    private long busyUntil;

    public EgressPort(
        final int id, final LinkRate rate, final PacketPool pool, final int dataQueuePackets,
        final int headerQueuePackets, final int headersPerData) {
        this(id, rate, pool, dataQueuePackets, headerQueuePackets, headersPerData, QueueFactory.SINGLE_THREADED);
    }

    /** A port whose queues come from {@code queues}: rings that every pipeline's thread feeds, in real time. */
    public EgressPort(
        final int id, final LinkRate rate, final PacketPool pool, final int dataQueuePackets,
        final int headerQueuePackets, final int headersPerData, final QueueFactory queues) {
        this(id, rate, pool, queues.create(dataQueuePackets, true), queues.create(headerQueuePackets, true), headersPerData);
    }

    /** A port with the queues it is given. */
    public EgressPort(
        final int id, final LinkRate rate, final PacketPool pool, final HandleQueue dataQueue, final HandleQueue headerQueue,
        final int headersPerData) {
        this(id, rate, pool, new HandleQueue[] {dataQueue}, DataQueueScheduler.single(), headerQueue, headersPerData);
    }

    /**
     * A port with several data queues, served by {@code dataScheduler} whenever the header scheduler picks data,
     * counting into a registry of its own (a port outside a switch).
     */
    public EgressPort(
        final int id, final LinkRate rate, final PacketPool pool, final HandleQueue[] dataQueues, final DataQueueScheduler dataScheduler,
        final HandleQueue headerQueue, final int headersPerData) {
        this(id, rate, pool, dataQueues, dataScheduler, headerQueue, headersPerData, PortCounters.standalone(id));
    }

    /** A switch's port with several data queues, counting into {@code counters}, which its egress alone writes. */
    public EgressPort(
        final int id, final LinkRate rate, final PacketPool pool, final HandleQueue[] dataQueues, final DataQueueScheduler dataScheduler,
        final HandleQueue headerQueue, final int headersPerData, final PortCounters counters) {
        if (dataQueues.length != dataScheduler.queues()) {
            throw new IllegalArgumentException(dataQueues.length + " data queues but a scheduler for " + dataScheduler.queues());
        }
        this.id = id;
        this.counters = counters;
        this.rate = rate;
        this.pool = pool;
        this.dataQueues = dataQueues.clone();
        this.dataQueue = dataQueues[0];
        this.oneDataQueue = dataQueues.length == 1;
        this.dataScheduler = dataScheduler;
        this.headerQueue = headerQueue;
        this.scheduler = new HeaderDataScheduler(headersPerData);
    }

    public boolean isIdle() {
        return inService == PacketPool.NO_PACKET;
    }

    public boolean hasWaiting() {
        return !headerQueue.isEmpty() || dataWaiting();
    }

    private boolean dataWaiting() {
        if (oneDataQueue) {
            // The one queue is in a field of its own: no array on the way.
            return !dataQueue.isEmpty();
        }
        for (final HandleQueue queue : dataQueues) {
            if (!queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Picks the next packet per the scheduler and starts serialising it at {@code now}; returns the time
     * its last bit leaves, or -1 when nothing waits. Call only when {@link #isIdle()}.
     */
    public long startTransmission(final long now) {
        final int choice = scheduler.choose(!headerQueue.isEmpty(), dataWaiting());
        if (choice == HeaderDataScheduler.NOTHING) {
            return -1;
        }
        // Virtual time: any waiting packet is ready, and with one data queue that queue is the one to serve.
        servedQueue = choice == HeaderDataScheduler.HEADER ? null : oneDataQueue ? dataQueue : nextData(Long.MAX_VALUE);
        inService = servedQueue == null ? headerQueue.poll() : servedQueue.poll();
        busyUntil = now + rate.serialisation(pool.length(inService));
        return busyUntil;
    }

    /**
     * Real time: the port finished a packet at {@code finishedAt} (or went idle then) and its runtime looks
     * later; the next packet starts when both the port and the packet were there, never before it was
     * queued, and is chosen among the packets queued by then; never later than {@code now}, the time the
     * runtime has reached. Returns when it will have left, or -1 when nothing can start yet.
     */
    public long startTransmissionAfter(final long finishedAt, final long now) {
        final int header = headerQueue.peek();
        final long headerQueued = header == PacketPool.NO_PACKET ? Long.MAX_VALUE : pool.queuedPicos(header);
        long dataQueued = Long.MAX_VALUE;
        for (final HandleQueue queue : dataQueues) {
            final int data = queue.peek();
            if (data != PacketPool.NO_PACKET) {
                dataQueued = Math.min(dataQueued, pool.queuedPicos(data));
            }
        }
        if (headerQueued == Long.MAX_VALUE && dataQueued == Long.MAX_VALUE) {
            // Empty, or a producer has reserved a slot but not yet written it: look again on the next turn.
            return -1;
        }
        // The scheduler chooses among what had been queued when the port became free, as virtual time does,
        // not among what a late look finds.
        final long start = Math.max(finishedAt, Math.min(headerQueued, dataQueued));
        if (start > now) {
            // Not yet: packets arriving at that instant come first, and may change the choice.
            return -1;
        }
        final int choice = scheduler.choose(headerQueued <= start, dataQueued <= start);
        servedQueue = choice == HeaderDataScheduler.HEADER ? null : nextData(start);
        inService = servedQueue == null ? headerQueue.poll() : servedQueue.poll();
        busyUntil = start + rate.serialisation(pool.length(inService));
        return busyUntil;
    }

    /**
     * Ends every transmission done by {@code now}, each handed to {@code departures} at the instant it ended, and
     * starts each next one at that instant (or, on an idle port, when its packet was queued); a packet that cannot end
     * by {@code now} stays in service. Returns how many ended. {@code inOrder}: the engine looks at every instant
     * something changes for the port (virtual time), so every queued packet was queued by the instant the port came
     * free, and one queued for an idle port just now: the port takes whatever waits ({@link #startTransmission}), the
     * choice a late look makes ({@link #startTransmissionAfter}) without reading each queue head's time.
     */
    public int advanceTo(final long now, final boolean inOrder, final Departures departures) {
        int ended = 0;
        long free = busyUntil;
        if (inService != PacketPool.NO_PACKET) {
            if (now < free) {
                return 0;
            }
            departures.departed(id, finishTransmission(), free);
            ended++;
        } else if (inOrder) {
            free = Math.max(free, now);
        }
        while (true) {
            final long done = inOrder ? startTransmission(free) : startTransmissionAfter(free, now);
            if (done < 0 || done > now) {
                return ended;
            }
            departures.departed(id, finishTransmission(), done);
            free = done;
            ended++;
        }
    }

    /** When the packet in service ends, or {@link Long#MAX_VALUE} when none is. */
    public long nextDue() {
        return inService == PacketPool.NO_PACKET ? Long.MAX_VALUE : busyUntil;
    }

    /** The packet in service has left the port: count it and hand it over. */
    public int finishTransmission() {
        final int handle = inService;
        inService = PacketPool.NO_PACKET;
        if (ecn != null && servedQueue != null) {
            // The queue's depth as the packet leaves, in packets of its size.
            ecn.leaving(pool, handle, (long) servedQueue.size() * pool.length(handle));
        }
        counters.transmitted(pool.length(handle), pool.trimKind(handle) != TrimKind.NONE);
        return handle;
    }

    /** When the packet in service finishes, or when the last one finished. */
    public long busyUntil() {
        return busyUntil;
    }

    public int id() {
        return id;
    }

    public LinkRate rate() {
        return rate;
    }

    /** A new rate for the transmissions that start from now on, from the thread that owns the port (a live shard retuning). */
    public void rate(final LinkRate rate) {
        this.rate = java.util.Objects.requireNonNull(rate, "a port needs a rate");
    }

    /** The data queue the data scheduler serves next among those whose head was queued by {@code readyBy}. */
    private HandleQueue nextData(final long readyBy) {
        return dataQueues[dataScheduler.choose(dataQueues, pool, readyBy)];
    }

    /** Marks ECN-capable packets leaving the data queues after {@code marking} from now on (null: never). */
    public void ecnMarking(final EcnMarking marking) {
        this.ecn = marking;
    }

    /** The port's ECN marking, or null. */
    public EcnMarking ecnMarking() {
        return ecn;
    }

    /** Data queue 0: the only one without traffic classes. */
    public HandleQueue dataQueue() {
        return dataQueue;
    }

    public HandleQueue dataQueue(final int queue) {
        return queue == 0 ? dataQueue : dataQueues[queue];
    }

    public int dataQueueCount() {
        return dataQueues.length;
    }

    public HandleQueue headerQueue() {
        return headerQueue;
    }

    public PortCounters counters() {
        return counters;
    }

    /** Forgets queues, counters and the packet in service; the caller owns (and resets) the pool. */
    public void reset() {
        for (final HandleQueue queue : dataQueues) {
            queue.reset();
        }
        headerQueue.reset();
        scheduler.reset();
        dataScheduler.reset();
        counters.reset();
        inService = PacketPool.NO_PACKET;
        servedQueue = null;
        if (ecn != null) {
            ecn.reset();
        }
        busyUntil = 0;
    }

    /** Hands every handle still held to {@code drain}, for end-of-run accounting. */
    public void drainTo(final java.util.function.IntConsumer drain) {
        if (inService != PacketPool.NO_PACKET) {
            drain.accept(inService);
            inService = PacketPool.NO_PACKET;
        }
        for (int handle = headerQueue.poll(); handle != PacketPool.NO_PACKET; handle = headerQueue.poll()) {
            drain.accept(handle);
        }
        for (final HandleQueue queue : dataQueues) {
            for (int handle = queue.poll(); handle != PacketPool.NO_PACKET; handle = queue.poll()) {
                drain.accept(handle);
            }
        }
    }
}
