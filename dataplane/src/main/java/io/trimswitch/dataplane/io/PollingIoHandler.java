package io.trimswitch.dataplane.io;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.SelectStrategy;
import io.netty.channel.epoll.EpollIoHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.Consumer;

/**
 * An epoll event loop that is also a busy-polling duty cycle, DPDK style: each turn it polls its sockets
 * without blocking (reading whatever is ready in batches, recvmmsg), then runs the agent that owns those
 * sockets, then idles by the agent's strategy only when neither had anything to do. So the thread that
 * reads a port is the one that forwards and sends, and no other thread has to be woken for a packet.
 */
final class PollingIoHandler implements IoHandler {
    /** epoll_wait with a zero timeout, every turn: the loop never sleeps in the kernel. */
    private static final SelectStrategy POLL_NOW = (selectNow, hasTasks) -> selectNow.get();

    private final IoHandler epoll;
    private final Agent agent;
    private final IdleStrategy idle;
    private final Consumer<Throwable> faults;

    private PollingIoHandler(final IoHandler epoll, final Agent agent, final IdleStrategy idle, final Consumer<Throwable> faults) {
        this.epoll = epoll;
        this.agent = agent;
        this.idle = idle;
        this.faults = faults;
    }

    /** Loops that run {@code agent} between polls; what it throws goes to {@code faults}, and the loop goes on. */
    static IoHandlerFactory factory(final Agent agent, final IdleStrategy idle, final Consumer<Throwable> faults) {
        final IoHandlerFactory epoll = EpollIoHandler.newFactory(0, () -> POLL_NOW);
        return executor -> new PollingIoHandler(epoll.newHandler(executor), agent, idle, faults);
    }

    @Override
    public void initialize() {
        epoll.initialize();
    }

    @Override
    public int run(final IoHandlerContext context) {
        final int events = epoll.run(context);
        int work = 0;
        try {
            work = agent.doWork();
        } catch (final Throwable e) {
            faults.accept(e);
        }
        idle.idle(events + work);
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
}
