package io.trimswitch.dataplane.packet;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PacketPoolTest {
    @Test
    void handsOutEveryBufferOnceThenReportsExhaustion() {
        final PacketPool pool = new PacketPool(3000);
        final Set<Integer> handles = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            handles.add(pool.allocate());
        }
        assertEquals(3000, handles.size());
        assertEquals(PacketPool.NO_PACKET, pool.allocate());
        assertEquals(3000, pool.inUse());
    }

    @Test
    void buffersOfDifferentHandlesDoNotOverlap() {
        final PacketPool pool = new PacketPool(2048);
        final int a = pool.allocate();
        final int b = pool.allocate();
        pool.buffer(a).putLong(pool.offset(a) + PacketPool.SLOT_BYTES - 8, -1L);
        assertEquals(0L, pool.buffer(b).getLong(pool.offset(b)));
        assertNotEquals(pool.offset(a), pool.offset(b));
    }

    @Test
    void freeingTwiceIsABookkeepingBugAndFailsLoudly() {
        final PacketPool pool = new PacketPool(4);
        final int handle = pool.allocate();
        pool.free(handle);
        assertThrows(IllegalStateException.class, () -> pool.free(handle));
    }

    @Test
    void resetReturnsEverythingAndReplaysTheSameHandles() {
        final PacketPool pool = new PacketPool(16);
        final int first = pool.allocate();
        pool.allocate();
        pool.reset();
        assertEquals(0, pool.inUse());
        assertEquals(first, pool.allocate());
    }

    @Test
    void metadataSurvivesTheArraysGrowingWithTheWorkingSet() {
        final PacketPool pool = new PacketPool(5000);
        for (int i = 0; i < 5000; i++) {
            final int handle = pool.allocate();
            pool.sequence(handle, i);
            pool.arrivalPicos(handle, 1000L * i);
            pool.length(handle, i % 1500);
        }
        for (int handle = 0; handle < 5000; handle++) {
            assertEquals(handle, pool.sequence(handle));
            assertEquals(1000L * handle, pool.arrivalPicos(handle));
            assertEquals(handle % 1500, pool.length(handle));
        }
        pool.free(4999);
        assertEquals(4999, pool.allocate());
    }

    @Test
    void aPoolForShortFramesRefusesALongerOneAndPacksItsSlotsCloser() {
        final PacketPool pool = new PacketPool(16, 1500);
        final int a = pool.allocate();
        final int b = pool.allocate();
        pool.length(a, 1500);
        assertThrows(IllegalArgumentException.class, () -> pool.length(a, 1501));
        // 24 cache lines for the frame, then one more so that slots do not start a power of two apart.
        assertEquals(25 * 64, pool.offset(b) - pool.offset(a));
        pool.buffer(a).putLong(pool.offset(a) + 1500 - 8, -1L);
        assertEquals(0L, pool.buffer(b).getLong(pool.offset(b)));
        assertEquals(33 * 64, new PacketPool(2).offset(1));
    }

    @Test
    void partitionsOfOnePoolKeepTheirOwnMetadata() {
        final PacketPool pool = new PacketPool(4096);
        final PoolPartition low = new PoolPartition(pool, 0, 2048);
        final PoolPartition high = new PoolPartition(pool, 2048, 2048);
        final int a = low.allocate();
        final int b = high.allocate();
        pool.flow(a, 7);
        pool.flow(b, 9);
        assertEquals(7, pool.flow(a));
        assertEquals(9, pool.flow(b));
        assertEquals(2048, b);
    }

    @Test
    void aPoolThatKeepsOnlyHeadersCopiesAFrameWholeWithAZeroPayload() {
        final PacketPool pool = new PacketPool(16, 1500, 64);
        final int a = pool.allocate();
        final int b = pool.allocate();
        assertEquals(64, pool.offset(b) - pool.offset(a));
        pool.buffer(a).setMemory(pool.offset(a), 64, (byte) 0x5A);
        pool.length(a, 1500);
        final org.agrona.concurrent.UnsafeBuffer frame = new org.agrona.concurrent.UnsafeBuffer(new byte[PacketPool.SLOT_BYTES]);
        frame.setMemory(0, frame.capacity(), (byte) 0x77);
        pool.copyFrame(a, frame, 0);
        assertEquals((byte) 0x5A, frame.getByte(63));
        assertEquals((byte) 0, frame.getByte(64));
        assertEquals((byte) 0, frame.getByte(1499));
        assertEquals((byte) 0x77, frame.getByte(1500));
        assertThrows(IllegalArgumentException.class, () -> new PacketPool(16, 64, 128));
    }

    @Test
    void aPoolWithHeadroomHoldsA64KbFrameWithItsOffloadHeaderAheadOfIt() {
        final PacketPool pool = PacketPool.withHeadroom(4, PacketPool.MAX_SLOT_BYTES, 10);
        final int first = pool.allocate();
        final int second = pool.allocate();
        pool.length(first, PacketPool.MAX_SLOT_BYTES);
        assertEquals(0, pool.offset(first) % 64, "frames start a cache line");
        assertTrue(pool.offset(first) >= 10, "the headroom lies inside the slot");
        assertTrue(pool.offset(second) - 10 >= pool.offset(first) + PacketPool.MAX_SLOT_BYTES, "the next frame's headroom follows this frame");
        pool.buffer(first).putByte(pool.offset(first) - 10, (byte) 1);
        pool.buffer(second).putByte(pool.offset(second) - 1, (byte) 2);
        assertEquals(1, pool.buffer(first).getByte(pool.offset(first) - 10));
        assertThrows(IllegalArgumentException.class, () -> PacketPool.withHeadroom(4, PacketPool.MAX_SLOT_BYTES + 1, 10));
        assertThrows(IllegalArgumentException.class, () -> new PacketPool(4, PacketPool.MAX_SLOT_BYTES + 1));
    }

    @Test
    void aPoolWithHeadroomHoldsInMemoryOnlyThePagesItsFramesReach() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/smaps")), "Linux");
        final PacketPool pool = PacketPool.withHeadroom(2 * PacketPool.SLOTS_PER_SLAB, PacketPool.MAX_SLOT_BYTES, 10);
        final int small = pool.allocate();
        final long slab = pool.buffer(small).addressOffset();
        final long made = residentKib(slab);
        assertTrue(made <= 8, "a slab just made holds " + made + " KiB in memory, not its 64 MiB");
        pool.buffer(small).setMemory(pool.offset(small) - 10, 64 + 10, (byte) 7);
        final long oneSmallFrame = residentKib(slab);
        assertTrue(oneSmallFrame - made <= 8, "a 64-byte frame made " + (oneSmallFrame - made) + " KiB resident");
        for (int i = 0; i < 15; i++) {
            final int handle = pool.allocate();
            pool.buffer(handle).setMemory(pool.offset(handle), PacketPool.MAX_SLOT_BYTES, (byte) i);
        }
        final long sixteenFrames = residentKib(slab);
        assertTrue(sixteenFrames - oneSmallFrame >= 15 * 64 && sixteenFrames - oneSmallFrame <= 15 * 72,
            "15 frames of 64 KB made " + (sixteenFrames - oneSmallFrame) + " KiB resident");
        assertEquals(7, pool.buffer(small).getByte(pool.offset(small) + 63));
        assertEquals(0, pool.buffer(small).getByte(pool.offset(small) + 64), "untouched bytes read as zeros");
    }

    @Test
    void aPoolWithHeadroomHandsOutEveryBufferOnceThenReportsExhaustion() {
        final PacketPool pool = PacketPool.withHeadroom(PacketPool.SLOTS_PER_SLAB + 1, PacketPool.MAX_SLOT_BYTES, 10);
        final Set<Integer> handles = new HashSet<>();
        for (int i = 0; i <= PacketPool.SLOTS_PER_SLAB; i++) {
            handles.add(pool.allocate());
        }
        assertEquals(PacketPool.SLOTS_PER_SLAB + 1, handles.size());
        assertEquals(PacketPool.NO_PACKET, pool.allocate());
        final int last = PacketPool.SLOTS_PER_SLAB;
        assertNotEquals(pool.buffer(0).addressOffset(), pool.buffer(last).addressOffset(), "a second slab for the 1025th buffer");
    }

    @Test
    void aSlabTheKernelRefusesIsTriedAgainOnlyAfterManyRefusalsAndThenServes() {
        final int[] tries = new int[1];
        final boolean[] refuse = {true};
        final PacketPool.SlabSource slabs = bytes -> {
            tries[0]++;
            return refuse[0] ? null : new org.agrona.concurrent.UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(bytes));
        };
        final PacketPool pool = PacketPool.withHeadroom(2 * PacketPool.SLOTS_PER_SLAB, 2048, 10, slabs);
        final PoolPartition partition = new PoolPartition(PacketPool.withHeadroom(2 * PacketPool.SLOTS_PER_SLAB, 2048, 10, slabs), 0,
            PacketPool.SLOTS_PER_SLAB);
        for (int frame = 0; frame <= PacketPool.SLAB_RETRY_AFTER; frame++) {
            assertEquals(PacketPool.NO_PACKET, pool.allocate());
            assertEquals(PacketPool.NO_PACKET, partition.allocate());
        }
        assertEquals(2, tries[0], "one mmap each for " + (PacketPool.SLAB_RETRY_AFTER + 1) + " frames, not one a frame");
        refuse[0] = false;
        final int pooled = pool.allocate();
        final int partitioned = partition.allocate();
        assertEquals(4, tries[0], "tried again once the refusals have run out");
        assertEquals(0, pooled);
        assertEquals(0, partitioned);
        pool.length(pooled, 100);
        assertEquals(100, pool.length(pooled));
    }

    @Test
    void aPartitionOfAPoolForEveryQueueCostsOnlyTheSlabsItReaches() {
        final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "allocation counts");
        final com.sun.management.ThreadMXBean counting = (com.sun.management.ThreadMXBean) threads;
        final long before = counting.getCurrentThreadAllocatedBytes();
        final PacketPool pool = new PacketPool(1 << 20, 64);
        final PoolPartition partition = new PoolPartition(pool, 0, 1 << 20);
        for (int i = 0; i < 3 * PacketPool.SLOTS_PER_SLAB; i++) {
            assertEquals(i, partition.allocate());
            pool.arrivalPicos(i, i);
        }
        for (int i = 0; i < 3 * PacketPool.SLOTS_PER_SLAB; i++) {
            partition.free(i);
        }
        final long allocated = counting.getCurrentThreadAllocatedBytes() - before;
        // A million handles' metadata and free stack, made whole on the heap, would be 60 MB; three slabs' free stack is 12 KB,
        // and their metadata lies outside the heap, in rows mapped as they are reached.
        assertTrue(allocated < 1_000_000, "a pool of a million buffers, three slabs used, took " + allocated + " bytes of heap");
        assertEquals(3 * PacketPool.SLOTS_PER_SLAB - 1, pool.arrivalPicos(3 * PacketPool.SLOTS_PER_SLAB - 1));
    }

    /** Resident KiB of the mapping that holds {@code address}, from /proc/self/smaps. */
    /**
     * KiB of the slab at {@code address} (its 64 MiB) in memory, page by page as mincore(2) tells: not the Rss of the
     * mapping that holds it, which the kernel may have merged with a neighbouring mapping of the same kind.
     */
    private static long residentKib(final long address) {
        final long bytes = (long) PacketPool.SLOTS_PER_SLAB * PacketPool.MAX_SLOT_BYTES;
        final int pages = (int) (bytes / 4096);
        final java.lang.foreign.Linker linker = java.lang.foreign.Linker.nativeLinker();
        final java.lang.invoke.MethodHandle mincore = linker.downcallHandle(linker.defaultLookup().find("mincore").orElseThrow(),
            java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT, java.lang.foreign.ValueLayout.ADDRESS,
                java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.ADDRESS));
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            final java.lang.foreign.MemorySegment vector = arena.allocate(pages);
            final int result = (int) mincore.invokeExact(java.lang.foreign.MemorySegment.ofAddress(address & ~4095L), bytes, vector);
            assertEquals(0, result, "mincore");
            long resident = 0;
            for (int page = 0; page < pages; page++) {
                resident += vector.get(java.lang.foreign.ValueLayout.JAVA_BYTE, page) & 1;
            }
            return resident * 4;
        } catch (final Throwable e) {
            throw new AssertionError("mincore: " + e, e);
        }
    }
}
