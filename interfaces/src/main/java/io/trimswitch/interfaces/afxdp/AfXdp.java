package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import io.trimswitch.interfaces.SocketKind;

import java.util.function.IntFunction;

/**
 * The {@code af_xdp} kind: an AF_XDP socket per receive queue that an XDP program of the switch's own feeds ({@link XdpSocket}),
 * receiving into the pool's buffers where the switch gives it the piece of the pool of each queue's reader
 * ({@link #receivingInto}).
 */
public final class AfXdp implements SocketKind {
    /** Per receive queue, the piece of the pool its socket lends the kernel; null: a pool of each queue's own. */
    private final IntFunction<UmemShare> frames;

    public AfXdp() {
        this(queue -> null);
    }

    private AfXdp(final IntFunction<UmemShare> frames) {
        this.frames = frames;
    }

    @Override
    public String name() {
        return "af_xdp";
    }

    @Override
    public SocketKind receivingInto(final IntFunction<UmemShare> queueFrames) {
        return new AfXdp(queueFrames);
    }

    @Override
    public PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        return XdpSocket.open(interfaceName, calls, mustBeUp, queues, frames);
    }
}
