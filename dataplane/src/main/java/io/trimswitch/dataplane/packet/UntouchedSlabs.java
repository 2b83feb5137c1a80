package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.util.UntouchedMemory;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Slab memory that costs a page only once a frame is written to it ({@link UntouchedMemory}), where a direct buffer
 * would zero, and so make resident, every byte of a slab the moment it is made. A pool of 64 KB offload slots then
 * holds in memory only the pages its frames have reached: a 64-byte frame one page of its slot, not 64 KB. The mappings
 * are undone when the pool that owns them is no longer reachable.
 */
final class UntouchedSlabs implements PacketPool.SlabSource {
    /** Owns the mappings: once the pool (and so this) is unreachable, each is unmapped. */
    private final Arena owner = Arena.ofAuto();

    /** A page-aligned slab of {@code bytes}, all zeros, none of it resident yet; null when the kernel has no room. */
    @Override
    public UnsafeBuffer slab(final int bytes) {
        final MemorySegment slab;
        try {
            slab = UntouchedMemory.map(bytes, owner);
        } catch (final IllegalStateException e) {
            throw new IllegalStateException("packet pool: " + e.getMessage(), e);
        }
        return slab == null ? null : new UnsafeBuffer(slab.address(), bytes);
    }
}
