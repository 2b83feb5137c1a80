package io.trimswitch.dataplane.util;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Memory that costs a page only once something is written to it: an anonymous private mapping (Linux), where a direct
 * buffer would zero, and so make resident, every byte the moment it is made. For buffers sized for the worst case that
 * a run seldom reaches: the packet pool's slabs, the rings between threads.
 */
public final class UntouchedMemory {
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

    private UntouchedMemory() {
    }

    /**
     * A page-aligned mapping of {@code bytes}, all zeros, none of it resident yet, unmapped once {@code owner} is closed
     * or (an automatic arena) unreachable; null when the kernel has no room for it.
     */
    public static MemorySegment map(final long bytes, final Arena owner) {
        final MemorySegment mapped;
        try {
            mapped = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0L);
        } catch (final Throwable e) {
            throw new IllegalStateException("cannot call mmap: " + e, e);
        }
        if (mapped.address() == MAP_FAILED) {
            return null;
        }
        return mapped.reinterpret(bytes, owner, UntouchedMemory::unmap);
    }

    /**
     * A buffer of {@code bytes} as {@link #map} makes them, unmapped once the buffer is unreachable (it holds the
     * mapping through its byte buffer).
     *
     * @throws OutOfMemoryError when the kernel has no room for it, as a direct buffer would
     */
    public static UnsafeBuffer buffer(final int bytes) {
        final MemorySegment mapped = map(bytes, Arena.ofAuto());
        if (mapped == null) {
            throw new OutOfMemoryError("cannot map " + bytes + " bytes");
        }
        return new UnsafeBuffer(mapped.asByteBuffer());
    }

    private static void unmap(final MemorySegment mapping) {
        try {
            final int ignored = (int) MUNMAP.invokeExact(mapping, mapping.byteSize());
        } catch (final Throwable e) {
            throw new IllegalStateException("cannot unmap " + mapping.byteSize() + " bytes: " + e, e);
        }
    }
}
