package io.trimswitch.simulator;

import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;

/**
 * The frame that has just reached a host over {@link HostLinks}, read out of its buffer so that the buffer can go
 * back to the pool before the host acts on it. One instance per hosts object, read into again for every arrival:
 * no allocation per frame, and the fields hold until the next {@link #take}.
 */
public final class ShimArrival {
    /** Where the NDP-style shim starts in the frames the host links build: Ethernet, a 20-byte IPv4 header, UDP. */
    private static final int SHIM_OFFSET = 14 + 20 + 8;

    private int flow;
    private int sequence;
    private boolean control;
    private int flags;
    private boolean trimmed;

    /**
     * Reads the frame in {@code handle} and frees it. False when it belongs to no flow (nothing for a host to do),
     * true when the accessors now describe it.
     */
    public boolean take(final PacketPool pool, final int handle) {
        flow = pool.flow(handle);
        sequence = pool.sequence(handle);
        control = PacketClass.isControl(pool.classification(handle));
        flags = control ? NdpHeader.flags(pool.buffer(handle), pool.offset(handle) + SHIM_OFFSET) : 0;
        trimmed = pool.trimKind(handle) != TrimKind.NONE;
        pool.free(handle);
        return flow >= 0;
    }

    public int flow() {
        return flow;
    }

    public int sequence() {
        return sequence;
    }

    /** Data from a sender (false), or ACK, NACK or PULL back from its receiver (true). */
    public boolean control() {
        return control;
    }

    /** A data frame whose payload the switch cut off, or a control frame it trimmed. */
    public boolean trimmed() {
        return trimmed;
    }

    public boolean ack() {
        return control && (flags & NdpHeader.FLAG_ACK) != 0;
    }

    public boolean nack() {
        return control && (flags & NdpHeader.FLAG_NACK) != 0;
    }
}
