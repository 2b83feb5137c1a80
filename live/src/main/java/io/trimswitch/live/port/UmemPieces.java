package io.trimswitch.live.port;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.realtime.shard.ShardedDataplane;

/**
 * The live switch's pool buffers that AF_XDP sockets lend the kernel (the pool's second class): a piece of them per shard,
 * which the sockets of every receive queue the shard reads share as one UMEM. A frame arrives in a pool buffer and leaves
 * from it with no copy in between.
 */
public final class UmemPieces {
    /**
     * A shard's piece: a fill ring's worth ({@code FILL_TARGET}, 2048) for each of two ports and as many again in flight,
     * 4 KB each (32 MB). None of it is resident until an AF_XDP socket registers it, which pins it all.
     */
    public static final int FRAMES_PER_SHARD = 8 * PacketPool.SLOTS_PER_SLAB;

    private UmemPieces() {
    }

    /** {@code attachment}, its kind receiving each queue into the piece of the shard that reads the queue. */
    public static InterfacePorts.Attachment receivingInto(final InterfacePorts.Attachment attachment, final ShardedDataplane dataplane) {
        final int port = attachment.port();
        final SocketKind kind = attachment.kind().receivingInto(queue -> dataplane.frames(dataplane.ownership().receiveShard(port, queue)));
        return new InterfacePorts.Attachment(port, attachment.interfaceName(), kind, attachment.queues());
    }

    /** {@code kind} for ports a shard takes while the switch runs, which it reads alone: into shard {@code shard}'s piece. */
    public static SocketKind receivingInto(final SocketKind kind, final ShardedDataplane dataplane, final int shard) {
        return kind.receivingInto(queue -> dataplane.frames(shard));
    }
}
