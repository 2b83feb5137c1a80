package io.trimswitch.sockets;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.SelectStrategy;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.Consumer;

/**
 * An epoll event loop that is also a busy-polling duty cycle, DPDK style: each turn it polls its sockets
 * without blocking (reading whatever is ready in batches, recvmmsg), then runs the owner of those
 * sockets, then idles only when neither had anything to do. So the thread that reads a port is the one
 * that forwards and sends, and no other thread has to be woken for a packet.
 */
final class PollingIoHandler implements IoHandler {
    private final IoHandler epoll;
    private final PortsOwner owner;
    private final IdleStrategy idle;
    private final Consumer<Throwable> faults;
    /**
     * How long a thread keeps polling after its last work before it may sleep: a reply or the next frame of
     * a burst usually comes within it, and is then served without the cost of a wake-up.
     */
    private static final long POLL_BEFORE_SLEEP_NANOS = 50_000;
    private static final int TURNS_PER_EPOLL = 64;
    /** Set after a turn with nothing to do when the owner may sleep: the next poll waits in epoll_wait. */
    private boolean sleepNext;
    /** With sleepNext: the host instant the sleep ends at the latest, or {@link PortsOwner#UNTIL_WOKEN}. */
    private long wakeAtNanos = PortsOwner.UNTIL_WOKEN;
    private final TimedSleep timedSleep = new TimedSleep();
    private long lastWorkNanos;
    /**
     * Without UDP ports nothing but a wake-up or a task comes through epoll while the thread polls: it is asked every
     * {@link #TURNS_PER_EPOLL} turns, not every turn, which saved a system call per turn of an interface-port thread.
     */
    private final boolean sockets;
    private int turnsSinceEpoll;

    private PollingIoHandler(
        final ThreadAwareExecutor executor, final PortsOwner owner, final IdleStrategy idle, final Consumer<Throwable> faults,
        final boolean sockets) {
        this.owner = owner;
        this.sockets = sockets;
        this.idle = idle;
        this.faults = faults;
        // epoll_wait with a zero timeout every turn, but for a turn after which the owner said it may sleep.
        this.epoll = EpollIoHandler.newFactory(0, () -> (selectNow, hasTasks) -> sleepNext && !hasTasks ? SelectStrategy.SELECT : selectNow.get())
            .newHandler(executor);
    }

    /**
     * Loops that run {@code owner} between polls; what it throws goes to {@code faults}, and the loop goes on.
     * With a null {@code idle}, a thread with nothing to do sleeps in epoll_wait when its owner says nothing is
     * inside it, until a socket has data or it is woken; with an idle strategy it never sleeps in the kernel.
     * {@code sockets}: the loop has UDP sockets to read.
     */
    static IoHandlerFactory factory(final PortsOwner owner, final IdleStrategy idle, final Consumer<Throwable> faults, final boolean sockets) {
        return executor -> new PollingIoHandler(executor, owner, idle, faults, sockets);
    }

    @Override
    public void initialize() {
        epoll.initialize();
    }

    @Override
    public int run(final IoHandlerContext context) {
        final int events;
        if (sockets || sleepNext || ++turnsSinceEpoll == TURNS_PER_EPOLL) {
            events = epoll.run(sleepNext && wakeAtNanos != PortsOwner.UNTIL_WOKEN ? timedSleep.around(context, wakeAtNanos) : context);
            turnsSinceEpoll = 0;
        } else {
            events = 0;
        }
        sleepNext = false;
        int work = 0;
        try {
            work = owner.doWork();
            if (events + work == 0) {
                if (idle == null) {
                    final long now = System.nanoTime();
                    if (now - lastWorkNanos > POLL_BEFORE_SLEEP_NANOS) {
                        final long sleep = owner.sleepNanos();
                        sleepNext = sleep > 0;
                        wakeAtNanos = sleep == PortsOwner.UNTIL_WOKEN ? sleep : now + sleep;
                    }
                } else {
                    idle.idle(0);
                }
            } else if (idle != null) {
                idle.reset();
            } else {
                lastWorkNanos = System.nanoTime();
            }
        } catch (final Throwable e) {
            faults.accept(e);
        }
        return events + work;
    }

    @Override
    public void prepareToDestroy() {
        epoll.prepareToDestroy();
    }

    @Override
    public void destroy() {
        epoll.destroy();
    }

    @Override
    public IoRegistration register(final IoHandle handle) throws Exception {
        return epoll.register(handle);
    }

    @Override
    public void wakeup() {
        epoll.wakeup();
    }

    @Override
    public boolean isCompatible(final Class<? extends IoHandle> handleType) {
        return epoll.isCompatible(handleType);
    }

    /**
     * Epoll's wait bounded by the owner's next timed event as well as by the loop's own tasks: a port sending at
     * 0.1 Gb/s has its next packet leave 121 us later, and the thread sleeps until then (Netty arms a timerfd) rather
     * than spin. One instance, re-aimed each time: nothing is allocated per turn.
     */
    private static final class TimedSleep implements IoHandlerContext {
        private IoHandlerContext loop;
        private long wakeAtNanos;

        IoHandlerContext around(final IoHandlerContext context, final long wakeAt) {
            this.loop = context;
            this.wakeAtNanos = wakeAt;
            return this;
        }

        @Override
        public boolean canBlock() {
            return loop.canBlock();
        }

        @Override
        public long delayNanos(final long currentTimeNanos) {
            return Math.min(loop.delayNanos(currentTimeNanos), Math.max(0, wakeAtNanos - currentTimeNanos));
        }

        @Override
        public long deadlineNanos() {
            // Netty re-arms its timer when this changes and waits for delayNanos; only our instant needs to differ.
            return wakeAtNanos;
        }

        @Override
        public void reportActiveIoTime(final long activeNanos) {
            loop.reportActiveIoTime(activeNanos);
        }

        @Override
        public boolean shouldReportActiveIoTime() {
            return loop.shouldReportActiveIoTime();
        }
    }
}
