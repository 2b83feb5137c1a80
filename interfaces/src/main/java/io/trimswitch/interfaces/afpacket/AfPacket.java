package io.trimswitch.interfaces.afpacket;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.interfaces.SocketKinds;

/** The {@code af_packet} kind: an AF_PACKET socket with a memory-mapped receive ring ({@link PacketSocket}). */
public final class AfPacket implements SocketKind {
    @Override
    public String name() {
        return SocketKinds.AF_PACKET;
    }

    @Override
    public PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        if (queues != 1) {
            throw new IllegalStateException("interface " + interfaceName + ": an af_packet port reads one socket; queues: " + queues + " needs kind af_xdp");
        }
        return PacketSocket.open(interfaceName, calls, mustBeUp);
    }
}
