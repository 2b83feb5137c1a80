package io.trimswitch.interfaces.afpacket;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.interfaces.SocketKinds;

/**
 * The {@code af_packet} kind: an AF_PACKET socket with a memory-mapped receive ring ({@link PacketSocket}), or for a port
 * of several queues one such socket per queue in a fanout group ({@link FanoutSockets}).
 */
public final class AfPacket implements SocketKind {
    @Override
    public String name() {
        return SocketKinds.AF_PACKET;
    }

    @Override
    public PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        return queues == 1 ? PacketSocket.open(interfaceName, calls, mustBeUp) : FanoutSockets.open(interfaceName, calls, mustBeUp, queues);
    }
}
