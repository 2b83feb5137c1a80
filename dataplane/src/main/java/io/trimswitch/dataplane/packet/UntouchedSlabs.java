package io.trimswitch.dataplane.packet;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Slab memory that costs a page only once a frame is written to it: an anonymous private mapping (Linux), where a
 * direct buffer would zero, and so make resident, every byte of a slab the moment it is made. A pool of 64 KB offload
 * slots then holds in memory only the pages its frames have reached: a 64-byte frame one page of its slot, not 64 KB.
 * The mappings are undone when the pool that owns them is no longer reachable.
 */
final class UntouchedSlabs implements PacketPool.SlabSource {
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS_NORESERVE = 0x02 | 0x20 | 0x4000;
    private static final long MAP_FAILED = -1L;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;

    static {
        final Linker linker = Linker.nativeLinker();
        MMAP = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MUNMAP = linker.downcallHandle(linker.defaultLookup().find("munmap").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    }

    /** Owns the mappings: once the pool (and so this) is unreachable, each is unmapped. */
    private final Arena owner = Arena.ofAuto();

    /** A page-aligned slab of {@code bytes}, all zeros, none of it resident yet; null when the kernel has no room. */
    @Override
    public UnsafeBuffer slab(final int bytes) {
        final MemorySegment mapped;
        try {
            mapped = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, (long) bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0L);
        } catch (final Throwable e) {
            throw new IllegalStateException("packet pool: cannot call mmap: " + e, e);
        }
        if (mapped.address() == MAP_FAILED) {
            return null;
        }
        final MemorySegment slab = mapped.reinterpret(bytes, owner, UntouchedSlabs::unmap);
        return new UnsafeBuffer(slab.address(), bytes);
    }

    private static void unmap(final MemorySegment slab) {
        try {
            final int ignored = (int) MUNMAP.invokeExact(slab, slab.byteSize());
        } catch (final Throwable e) {
            throw new IllegalStateException("packet pool: cannot unmap a slab: " + e, e);
        }
    }
}
