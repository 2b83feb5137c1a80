package io.trimswitch.interfaces.afxdp;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import io.trimswitch.interfaces.SocketKind;

/** The {@code af_xdp} kind: an AF_XDP socket per receive queue that an XDP program of the switch's own feeds ({@link XdpSocket}). */
public final class AfXdp implements SocketKind {
    @Override
    public String name() {
        return "af_xdp";
    }

    @Override
    public PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        return XdpSocket.open(interfaceName, calls, mustBeUp, queues);
    }
}
