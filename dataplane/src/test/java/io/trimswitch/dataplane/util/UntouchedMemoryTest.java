package io.trimswitch.dataplane.util;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UntouchedMemoryTest {
    @Test
    void aBufferReadsAsZerosAndHoldsInMemoryOnlyThePagesWrittenTo() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps")), "Linux");
        final int bytes = 1 << 20;
        final UnsafeBuffer buffer = UntouchedMemory.buffer(bytes);
        assertEquals(bytes, buffer.capacity());
        assertEquals(0, buffer.addressOffset() % 4096, "page-aligned");
        assertEquals(0, residentPages(buffer), "none of it in memory yet");
        buffer.putLong(8, 42);
        buffer.putLong(bytes - 8, 43);
        assertEquals(2, residentPages(buffer), "a page for each place written");
        assertEquals(42, buffer.getLong(8));
        assertEquals(0, buffer.getLong(4096 * 10));
    }

    /** Pages of {@code buffer} in memory, as mincore(2) tells. */
    private static long residentPages(final UnsafeBuffer buffer) {
        final int pages = buffer.capacity() / 4096;
        final Linker linker = Linker.nativeLinker();
        final MethodHandle mincore = linker.downcallHandle(linker.defaultLookup().find("mincore").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment vector = arena.allocate(pages);
            final int result = (int) mincore.invokeExact(MemorySegment.ofAddress(buffer.addressOffset()), (long) buffer.capacity(), vector);
            assertEquals(0, result, "mincore");
            long resident = 0;
            for (int page = 0; page < pages; page++) {
                resident += vector.get(ValueLayout.JAVA_BYTE, page) & 1;
            }
            return resident;
        } catch (final Throwable e) {
            throw new AssertionError("mincore: " + e, e);
        }
    }
}
