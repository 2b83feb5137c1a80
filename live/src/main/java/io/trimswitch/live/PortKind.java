package io.trimswitch.live;

/**
 * One kind of port a live shard owns, as OVS's netdev classes are: UDP/VXLAN sockets ({@link SocketPortKind}) or
 * AF_PACKET interfaces ({@link InterfacePortKind}). The shard's ports hold one per port it owns and send what left an
 * egress port through it; another kind (AF_XDP, a tap) is one more class. Every method runs on the shard's thread.
 */
interface PortKind {
    /** Packet {@code handle} left egress port {@code port}: it goes out with this turn's {@link #flush()}, and its buffer back. */
    void send(int port, int handle);

    /** Sends what this turn's egress gave these ports, in as few system calls as they can. */
    void flush();

    /** Frames taken for sending that the kernel would not take yet: the shard keeps polling to send them. */
    boolean hasUnsent();

    /** After the shard's last turn. */
    void close();
}
