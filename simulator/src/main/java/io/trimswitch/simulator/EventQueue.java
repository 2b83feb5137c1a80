package io.trimswitch.simulator;

/**
 * The discrete-event runtime's agenda: a 4-ary min-heap of single {@code long} keys. A key packs the
 * event's time (picoseconds, high bits), its type and its argument, so ordering is one comparison and
 * events at the same instant run in (type, argument) order — a fixed order, hence a deterministic run
 * whatever order they were scheduled in. No objects, no boxing; the heap only grows.
 *
 * <p>Times up to {@link #MAX_TIME} (about 8.7 s of simulated time) fit.
 */
public final class EventQueue {
    private static final int ARG_BITS = 16;
    private static final int TYPE_BITS = 4;
    private static final int TIME_SHIFT = ARG_BITS + TYPE_BITS;
    public static final int MAX_ARG = (1 << ARG_BITS) - 1;
    public static final int MAX_TYPE = (1 << TYPE_BITS) - 1;
    public static final long MAX_TIME = Long.MAX_VALUE >>> TIME_SHIFT;

    private long[] keys = new long[256];
    private int size;
    /** The head was taken to be handled and is still in the heap (see {@link #takeHead}). */
    private boolean headTaken;

    public void schedule(final long time, final int type, final int arg) {
        if (headTaken) {
            headTaken = false;
            replaceHead(time, type, arg);
            return;
        }
        final long key = key(time, type, arg);
        if (size == keys.length) {
            keys = java.util.Arrays.copyOf(keys, size * 2);
        }
        int child = size++;
        while (child > 0) {
            final int parent = (child - 1) >>> 2;
            final long parentKey = keys[parent];
            if (parentKey <= key) {
                break;
            }
            keys[child] = parentKey;
            child = parent;
        }
        keys[child] = key;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Time of the earliest event; only when not empty. */
    public long nextTime() {
        return keys[0] >>> TIME_SHIFT;
    }

    /** The earliest event's key without removing it; only when not empty. */
    public long peek() {
        return keys[0];
    }

    /**
     * The earliest event's key, to be handled. It stays at the head meanwhile: the first event scheduled while it is
     * handled takes its place in one heap operation (a port's next packet, a link's next frame), and
     * {@link #doneWithHead} removes it if nothing did.
     */
    public long takeHead() {
        headTaken = true;
        return keys[0];
    }

    /** The event {@link #takeHead} gave is handled: it leaves the heap unless an event scheduled since replaced it. */
    public void doneWithHead() {
        if (headTaken) {
            headTaken = false;
            poll();
        }
    }

    /** Removes the earliest event and returns its key; decode it with {@link #type} and {@link #arg}. */
    public long poll() {
        final long head = keys[0];
        final int last = --size;
        siftDown(keys[last], last);
        return head;
    }

    /**
     * Removes the earliest event and schedules another in one pass: what a port does when its packet
     * ends and the next one starts. Cheaper than {@link #poll} then {@link #schedule}.
     */
    public void replaceHead(final long time, final int type, final int arg) {
        siftDown(key(time, type, arg), size);
    }

    private static long key(final long time, final int type, final int arg) {
        if (time < 0 || time > MAX_TIME) {
            throw new IllegalArgumentException("event time " + time + " ps outside 0.." + MAX_TIME + " ps");
        }
        return (time << TIME_SHIFT) | ((long) type << ARG_BITS) | arg;
    }

    /** Puts {@code key} at the root of a heap of {@code size} keys and lets it sink to its place. */
    private void siftDown(final long key, final int size) {
        int parent = 0;
        while (true) {
            final int first = 4 * parent + 1;
            if (first >= size) {
                break;
            }
            int smallest = first;
            long smallestKey = keys[first];
            final int end = Math.min(first + 4, size);
            for (int child = first + 1; child < end; child++) {
                final long childKey = keys[child];
                if (childKey < smallestKey) {
                    smallest = child;
                    smallestKey = childKey;
                }
            }
            if (key <= smallestKey) {
                break;
            }
            keys[parent] = smallestKey;
            parent = smallest;
        }
        keys[parent] = key;
    }

    public static long time(final long key) {
        return key >>> TIME_SHIFT;
    }

    public static int type(final long key) {
        return (int) (key >>> ARG_BITS) & MAX_TYPE;
    }

    public static int arg(final long key) {
        return (int) key & MAX_ARG;
    }

    public void clear() {
        size = 0;
        headTaken = false;
    }
}
