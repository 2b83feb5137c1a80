package io.trimswitch.interfaces;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The calling thread's errno, read where the C library keeps it ({@code __errno_location}), for the calls a port makes
 * every turn: a downcall that captures its call state slices a new memory segment each call, garbage wherever the JIT
 * does not take it away. Read at once after the call that failed; a safepoint between the two may, rarely, change it,
 * and what it decides there is only which reason a refused frame is counted under, or one kick more or less.
 */
public final class ThreadErrno {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle LOCATION = LINKER.downcallHandle(LINKER.defaultLookup().find("__errno_location").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG));
    /** All of memory: errno read at its address, with no segment made for the read. */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private ThreadErrno() {
    }

    /** errno as the calling thread's last failed C library call left it. */
    public static int read() {
        try {
            return MEMORY.get(ValueLayout.JAVA_INT, (long) LOCATION.invokeExact());
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
