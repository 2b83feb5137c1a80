package io.trimswitch.architecture;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/** A ring of its own that tells another shard a learned MAC beside its command queue: what {@link ShardChannelsTest} plants. */
final class PlantedNewsRing {
    private final ManyToOneRingBuffer inbox = new ManyToOneRingBuffer(
        new UnsafeBuffer(ByteBuffer.allocateDirect(4096 + RingBufferDescriptor.TRAILER_LENGTH)));
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[Long.BYTES]);

    boolean tell(final long mac) {
        message.putLong(0, mac);
        return inbox.write(1, message, 0, Long.BYTES);
    }
}
