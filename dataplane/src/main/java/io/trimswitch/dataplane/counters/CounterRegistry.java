package io.trimswitch.dataplane.counters;

import io.trimswitch.dataplane.io.PrivateFiles;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One switch's counters, in Agrona's {@link CountersManager} layout: each counter has a type id (its
 * {@link CounterType}), a key (port, index, name) and a readable label, and one writer, which adds with a plain read
 * and a release store; any thread, or another process mapping the same file, reads a whole, current value with an
 * acquire load, without locks. In memory for a switch in virtual time and for tests; in a memory-mapped file for the
 * live switch, which {@code trimswitch stats} reads through {@link CounterFile}.
 *
 * <p>The file holds a header page (magic, version, the two areas' lengths, the writer's process id), then the
 * metadata, then the values. The switch that made it holds a lock on it while it runs, so a second switch can tell the
 * file is taken, and deletes it when it closes.
 *
 * <p>A file's counters of a port the switch does not have yet (its fabric has room for ports that {@code ctl add-port}
 * may attach) wait in memory of their own, outside the file, until {@link #show} puts them in it: a counter costs the
 * file 640 bytes (Agrona's record and value), resident once written, and most of a fabric's ports are never attached.
 */
public final class CounterRegistry implements AutoCloseable {
    static final int MAGIC = 0x4E43_5354;
    static final int VERSION = 1;
    static final int HEADER_BYTES = 4096;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int METADATA_LENGTH_OFFSET = 8;
    static final int VALUES_LENGTH_OFFSET = 12;
    static final int PID_OFFSET = 16;

    /** Keeps the memory (direct or mapped) alive as long as a block of this registry is. */
    private final ByteBuffer memory;
    private final CountersManager manager;
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[CountersReader.MAX_KEY_LENGTH]);
    private final UnsafeBuffer label = new UnsafeBuffer(new byte[CountersReader.MAX_LABEL_LENGTH]);
    /** Null in memory. */
    private final Path file;
    /** The file it holds while the switch runs; null in memory. */
    private final HeldCounterFile held;
    private boolean closed;
    /**
     * In memory, until a reader is made: the blocks whose keys and labels are not written yet. A switch in virtual time
     * makes thousands of counters and reads none of them by name; writing their names cost its start 10 ms.
     */
    private final List<Unnamed> unnamed = new ArrayList<>();
    private boolean readerMade;
    /** Ports whose counters wait outside the file until {@link #show}: none in memory, or for a registry made so. */
    private final java.util.function.IntPredicate waiting;
    /** By port, the counters that wait for it, each in a slot of {@link #waitingSlots}. */
    private final java.util.Map<Integer, List<Waiting>> waitingByPort = new java.util.HashMap<>();
    /** Where waiting counters count meanwhile: 8 bytes each, in chunks made as blocks need them. */
    private final List<ByteBuffer> waitingSlots = new ArrayList<>();
    private int waitingUsed;
    private static final int WAITING_CHUNK = 1024;
    /** Slots a packed registry left unused at the end of a chunk, so that no block straddles two chunks. */
    private int skipped;
    /** Ports {@link #show} has put in the file: their counters made from now on go straight there. */
    private final Set<Integer> shown = new java.util.HashSet<>();
    /** Every counter in a slot of its own, 8 bytes after its block's previous one, and no reader (see {@link #packed}). */
    private boolean packed;

    /** A block's counter, by index, that waits for its port. */
    private record Waiting(CounterBlock block, int index, String writer, CounterName name) {
    }

    /** A block's counters, allocated with their types but not yet their keys and labels. */
    private record Unnamed(String writer, List<CounterName> names, int[] ids) {
    }

    private CounterRegistry(final ByteBuffer memory, final int offset, final int capacity, final HeldCounterFile held,
        final java.util.function.IntPredicate waiting) {
        this.memory = memory;
        this.waiting = waiting;
        this.held = held;
        this.file = held == null ? null : held.file();
        final AtomicBuffer metadata = new UnsafeBuffer(memory, offset, capacity * CountersReader.METADATA_LENGTH);
        final AtomicBuffer values = new UnsafeBuffer(memory, offset + capacity * CountersReader.METADATA_LENGTH,
            capacity * CountersReader.COUNTER_LENGTH);
        this.manager = new CountersManager(metadata, values);
    }

    /** A registry of {@code capacity} counters in direct memory. */
    public static CounterRegistry inMemory(final int capacity) {
        final ByteBuffer memory = BufferUtil.allocateDirectAligned(bytes(checked(capacity)), CountersReader.COUNTER_LENGTH);
        return new CounterRegistry(memory, 0, capacity, null, port -> false);
    }

    /**
     * A registry whose counters nobody reads but their writer, through its blocks: a switch in virtual time. Each block's
     * counters lie 8 bytes apart, a port's in two or three cache lines, where Agrona's layout gives each counter 128 bytes
     * and 512 of metadata: a fabric of thousands of ports counts each packet's hops in memory the caches hold. It has
     * no {@link #reader()} and no capacity to run out of.
     */
    public static CounterRegistry packed() {
        final CounterRegistry registry = new CounterRegistry(
            BufferUtil.allocateDirectAligned(bytes(1), CountersReader.COUNTER_LENGTH), 0, 1, null, port -> false);
        registry.packed = true;
        return registry;
    }

    /**
     * A registry of {@code capacity} counters in {@code file}, made afresh (a file a stopped switch left behind is
     * replaced), which this registry holds until {@link #close()} deletes it.
     *
     * @throws IllegalStateException naming the file when another running switch holds it, or it cannot be made
     */
    public static CounterRegistry mapped(final Path file, final int capacity) {
        return mapped(file, capacity, port -> false);
    }

    /**
     * {@link #mapped(Path, int)}, whose counters of the ports {@code waiting} names stay out of the file (they count all
     * the same) until {@link #show} puts each port's in.
     */
    public static CounterRegistry mapped(final Path file, final int capacity, final java.util.function.IntPredicate waiting) {
        return mapped(file, capacity, waiting, null);
    }

    /**
     * {@link #mapped(Path, int, java.util.function.IntPredicate)}, the file readable by {@code group} when not null (mode
     * 0640, else 0600), in a directory {@link PrivateFiles#directory} makes or finds safe.
     */
    public static CounterRegistry mapped(final Path file, final int capacity, final java.util.function.IntPredicate waiting, final String group) {
        final HeldCounterFile held = HeldCounterFile.make(file, checked(capacity), group);
        return new CounterRegistry(held.memory(), HEADER_BYTES, capacity, held, waiting);
    }

    private static int checked(final int capacity) {
        if (capacity < 1 || capacity > Integer.MAX_VALUE / 2 / CountersReader.METADATA_LENGTH) {
            throw new IllegalArgumentException("a registry holds 1.." + Integer.MAX_VALUE / 2 / CountersReader.METADATA_LENGTH
                + " counters, got " + capacity);
        }
        return capacity;
    }

    private static int bytes(final int capacity) {
        return capacity * (CountersReader.METADATA_LENGTH + CountersReader.COUNTER_LENGTH);
    }

    /**
     * {@code count} counters for one writer, named by {@code names} (a list of {@code count}) only where anything reads
     * them by name: a packed registry, which nobody reads but the writer, never asks. A switch in virtual time makes
     * thousands of ports' counters, and their names would cost the start of every run.
     */
    public synchronized CounterBlock block(final String writer, final int count, final java.util.function.Supplier<List<CounterName>> names) {
        return packed ? packedBlock(count, List.of()) : block(writer, names.get());
    }

    /**
     * Counters for one writer, allocated here in order: the block's counter {@code i} is {@code names.get(i)}.
     *
     * @param writer who writes them, for their labels (a thread's or component's name)
     */
    public synchronized CounterBlock block(final String writer, final List<CounterName> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a counter block holds at least one counter");
        }
        if (packed) {
            return packedBlock(names.size(), names);
        }
        final int direct = (int) names.stream().filter(name -> !waits(name.port())).count();
        if (manager.available() < direct) {
            throw new IllegalStateException("the counters registry is full: " + direct + " more counters for " + writer
                + ", " + manager.available() + " of " + manager.capacity() + " left");
        }
        final long[] addresses = new long[names.size()];
        // A file is read by other processes at any time: its names are written at once.
        final int[] unnamedIds = file == null && !readerMade ? new int[addresses.length] : null;
        final CounterBlock made = new CounterBlock(this, addresses, names);
        for (int i = 0; i < addresses.length; i++) {
            final CounterName name = names.get(i);
            final int id;
            if (waits(name.port())) {
                addresses[i] = waitingSlot();
                waitingByPort.computeIfAbsent(name.port(), port -> new ArrayList<>()).add(new Waiting(made, i, writer, name));
                continue;
            } else if (unnamedIds != null) {
                id = manager.allocate(name.type().id(), key, 0, 0, label, 0, 0);
                unnamedIds[i] = id;
            } else {
                final int keyLength = CounterKey.write(key, name);
                // Into a buffer kept for the purpose, not a String per counter: a switch in virtual time makes thousands.
                final int labelLength = name.writeLabel(label, writer);
                id = manager.allocate(name.type().id(), key, 0, keyLength, label, 0, labelLength);
            }
            addresses[i] = manager.valuesBuffer().addressOffset() + CountersReader.counterOffset(id);
        }
        if (unnamedIds != null) {
            unnamed.add(new Unnamed(writer, List.copyOf(names), unnamedIds));
        }
        return made;
    }

    /** A packed registry's block: its counters in one run of slots, so that its writer counts from one base address. */
    private CounterBlock packedBlock(final int count, final List<CounterName> names) {
        if (count < 1) {
            throw new IllegalArgumentException("a counter block holds at least one counter");
        }
        if (count <= WAITING_CHUNK && waitingUsed % WAITING_CHUNK + count > WAITING_CHUNK) {
            skipped += waitingSlots.size() * WAITING_CHUNK - waitingUsed;
            waitingUsed = waitingSlots.size() * WAITING_CHUNK;
        }
        final long[] slots = new long[count];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = waitingSlot();
        }
        return new CounterBlock(this, slots, names, false);
    }

    private boolean waits(final int port) {
        return waiting.test(port) && !shown.contains(port);
    }

    private long waitingSlot() {
        if (waitingUsed == waitingSlots.size() * WAITING_CHUNK) {
            waitingSlots.add(BufferUtil.allocateDirectAligned(WAITING_CHUNK * Long.BYTES, 64));
        }
        final ByteBuffer chunk = waitingSlots.get(waitingUsed / WAITING_CHUNK);
        return BufferUtil.address(chunk) + (long) (waitingUsed++ % WAITING_CHUNK) * Long.BYTES;
    }

    /**
     * Puts port {@code port}'s counters in the file, with what they have counted so far, for readers to see; its counters
     * made later go straight there. Before the port carries a packet: a writer that counts for it meanwhile must pass a
     * synchronisation point after this returns (a task on its thread), to count where the counter is now. Once per port;
     * a port already in the file is left as it is.
     *
     * @throws IllegalStateException when the registry has no room left for them
     */
    public synchronized void show(final int port) {
        shown.add(port);
        final List<Waiting> counters = waitingByPort.remove(port);
        if (counters == null) {
            return;
        }
        if (manager.available() < counters.size()) {
            waitingByPort.put(port, counters);
            throw new IllegalStateException("the counters registry is full: " + counters.size() + " more counters for port " + port
                + ", " + manager.available() + " of " + manager.capacity() + " left");
        }
        for (final Waiting counter : counters) {
            final int keyLength = CounterKey.write(key, counter.name());
            final int labelLength = counter.name().writeLabel(label, counter.writer());
            final int id = manager.allocate(counter.name().type().id(), key, 0, keyLength, label, 0, labelLength);
            final long address = manager.valuesBuffer().addressOffset() + CountersReader.counterOffset(id);
            counter.block().moveTo(counter.index(), address);
        }
    }

    /** Counters that wait for their port to be {@link #show shown}. */
    public synchronized int waiting() {
        int count = 0;
        for (final List<Waiting> counters : waitingByPort.values()) {
            count += counters.size();
        }
        return count;
    }

    /** A reader of every counter here, for any thread: the counters' keys and labels are written by now. */
    public synchronized CountersReader reader() {
        if (packed) {
            throw new IllegalStateException("a packed registry is read through its blocks only");
        }
        readerMade = true;
        for (final Unnamed block : unnamed) {
            for (int i = 0; i < block.ids().length; i++) {
                final CounterName name = block.names().get(i);
                manager.setCounterKey(block.ids()[i], key, 0, CounterKey.write(key, name));
                manager.setCounterLabel(block.ids()[i], label.getStringWithoutLengthAscii(0, name.writeLabel(label, block.writer())));
            }
        }
        unnamed.clear();
        return new CountersReader(manager.metaDataBuffer(), manager.valuesBuffer());
    }

    /**
     * The process id recorded in the file that a switch which died without closing left at this registry's name, which
     * this registry replaced; 0 when there was none.
     */
    public long replacedOwner() {
        return held == null ? 0 : held.replacedOwner();
    }

    /** The file it lives in, or null in memory. */
    public Path file() {
        return file;
    }

    public int capacity() {
        if (packed) {
            return Integer.MAX_VALUE;
        }
        return manager.capacity();
    }

    /** Counters allocated so far. */
    public synchronized int allocated() {
        if (packed) {
            return waitingUsed - skipped;
        }
        return manager.capacity() - manager.available();
    }

    /**
     * Deletes the file (readers that still map it keep its last values) and lets another switch take its name; the
     * memory stays mapped until no block refers to it, so a writer that counts once more does no harm.
     */
    @Override
    public synchronized void close() {
        if (closed || file == null) {
            closed = true;
            return;
        }
        closed = true;
        held.release();
    }

    @Override
    public String toString() {
        return "CounterRegistry(" + (file == null ? "in memory" : file.toString()) + ", " + allocated() + " of " + capacity() + ")";
    }
}
