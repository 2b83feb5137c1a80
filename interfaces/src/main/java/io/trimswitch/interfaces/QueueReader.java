package io.trimswitch.interfaces;

import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Receive queues of another thread's port that this pipeline thread reads ({@link SpreadQueues}): it takes their frames
 * off their rings itself into buffers of its own partition, a descriptor each in its own burst, counts them under its
 * own name (a port's counters are the sum over the threads that write them), and meters them in its own pipeline. It never
 * sends: the port's own thread does, from a queue of its own. The port's thread hands it each socket the port opens
 * ({@link #take}) and takes it back before it closes it ({@link #letGo}); a read in progress finishes first.
 */
public final class QueueReader {
    /** What the frames a thread read of another thread's port are called in the counters: {@code thread 1}. */
    public static final String READ_BY = "thread ";
    /** Frames taken off the queues in one turn before the thread turns to its other work, as a port's own. */
    private static final int RECEIVE_BUDGET = 64;
    /** Naps of {@link #NAP_NANOS} a stuck read is waited for: about 2 s, counted in naps since this module reads no clock. */
    private static final int LET_GO_NAPS = 20_000;
    private static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final List<DropReason> DROPS = List.of(DropReason.TRUNCATED, DropReason.VLAN_TAGGED, DropReason.TOO_SHORT, DropReason.OVERSIZE);

    private final int port;
    private final int[] queues;
    /** Drops by reason, as the port's own thread counts them. */
    private final LivePortCounters counters;
    /** Frames and segments read here, under this thread's name ({@code thread 1}), so that stats can tell the threads apart. */
    private final LivePortCounters received;
    /** Counts the frames this thread takes of the port as the port's own thread counts its own; made with its buffers. */
    private PortReceiver receiver;
    /** See {@link #readThroughNanos()}; this thread alone writes and reads it. */
    private long readThroughNanos = Long.MAX_VALUE;
    private final LinuxCalls calls = new LinuxCalls(java.lang.foreign.Arena.ofAuto());
    /** Where a frame too long for a ring's slot is read (an AF_PACKET queue's), on this thread; held, or it is freed. */
    private final java.lang.foreign.MemorySegment longFrameBytes = java.lang.foreign.Arena.ofAuto().allocate(PortSocket.LONG_FRAME_BYTES + 1, 64);
    private final UnsafeBuffer longFrame = new UnsafeBuffer(longFrameBytes.address(), (int) longFrameBytes.byteSize());
    /** The port's socket while it is open and taken up here; the port's thread sets it, this one reads it. */
    private volatile PortSocket socket;
    /** True while this thread reads {@link #socket}: the port's thread waits for it before closing the socket. */
    private volatile boolean reading;
    private volatile InterfacePorts.Readiness readiness;

    /**
     * @param queues    the port's receive queues this thread reads
     * @param writer    this thread's name, under which it counts the port's frames
     * @param thread    the thread's number, which names the frames it read ({@code thread 1})
     */
    public QueueReader(final int port, final int[] queues, final CounterRegistry registry, final String writer, final int thread) {
        this.port = port;
        this.queues = queues.clone();
        this.counters = new LivePortCounters(registry, writer, port, List.of(), DROPS);
        this.received = new LivePortCounters(registry, writer, port, READ_BY + thread, List.of(CounterType.RX_DATAGRAMS, CounterType.RX_SEGMENTS),
            List.of());
    }


    /** Where the frames go, on this thread: buffers of {@code pool} that {@code allocate} gives; before the thread starts. */
    public void bufferIn(final PacketPool pool, final IntSupplier allocate) {
        this.receiver = new PortReceiver(port, received, counters, pool, allocate);
    }

    public int port() {
        return port;
    }

    /** The port's receive queues this thread reads. */
    public int[] queues() {
        return queues.clone();
    }

    /** What wakes this thread when one of its queues has a frame; the queues of sockets taken up later wake it too. */
    public void wakeOnFrames(final InterfacePorts.Readiness poller) {
        this.readiness = poller;
    }

    /** On this thread: takes the frames waiting on its queues into {@code burst}, within its room; how many there were. */
    public int receive(final Burst burst) {
        reading = true;
        // A volatile write then a volatile read: the port's thread either sees this read begun or this thread sees the socket gone.
        final PortSocket open = socket;
        final int budget = Math.min(RECEIVE_BUDGET, burst.room());
        int frames = 0;
        readThroughNanos = Long.MAX_VALUE;
        if (open != null) {
            calls.clocks().sample();
            receiver.into(burst);
            for (final int queue : queues) {
                frames += open.receive(queue, receiver, budget - frames, calls, longFrame);
            }
            if (frames == budget && budget > 0 && receiver.lastReceivedNanos() != Burst.UNSTAMPED) {
                readThroughNanos = receiver.lastReceivedNanos();
            }
        }
        reading = false;
        return frames;
    }

    /**
     * Whether the socket's queues wait for buffers to lend the kernel ({@link PortSocket#waitsForBuffers}). It reads what
     * the port's thread writes too: a hint for how long to sleep, never a decision about a frame.
     */
    public boolean waitsForBuffers() {
        final PortSocket open = socket;
        return open != null && open.waitsForBuffers();
    }

    /**
     * After {@link #receive}: the host time of the last frame taken where the budget ran out before the queues did, so
     * that frames received later and still waiting are timed by their own stamps next turn; MAX_VALUE: all were taken.
     */
    public long readThroughNanos() {
        return readThroughNanos;
    }

    /** On the port's thread: the port's socket, just opened, is read here from now on. */
    synchronized void take(final PortSocket opened) {
        // Read from now on, before the watch wakes this thread: its first read lends an AF_XDP queue its fill ring.
        socket = opened;
        final InterfacePorts.Readiness poller = readiness;
        if (poller != null) {
            for (final int queue : queues) {
                poller.watch(opened.queueFd(queue));
            }
        }
    }

    /**
     * On the port's thread, before {@code closing} closes: it is no longer read here. False when a read on this thread
     * did not end in time (its thread is stuck): the socket must then be left open.
     */
    synchronized boolean letGo(final PortSocket closing) {
        if (socket != closing) {
            return true;
        }
        socket = null;
        for (int nap = 0; reading; nap++) {
            if (nap == LET_GO_NAPS) {
                return false;
            }
            LockSupport.parkNanos(NAP_NANOS);
        }
        final InterfacePorts.Readiness poller = readiness;
        if (poller != null) {
            for (final int queue : queues) {
                poller.unwatch(closing.queueFd(queue));
            }
        }
        return true;
    }
}
