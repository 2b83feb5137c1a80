package io.trimswitch.runtime;

/**
 * The discrete-event runtime's agenda: a binary min-heap over two primitive arrays, ordered by time and
 * then by the order events were scheduled, so equal-time events run in a fixed order and a run is
 * deterministic. An event is a type and an int argument packed with its sequence number in one
 * long: no objects, no boxing.
 */
public final class EventQueue {
    private static final int ARG_BITS = 20;
    private static final int TYPE_BITS = 4;
    private static final int SEQUENCE_SHIFT = ARG_BITS + TYPE_BITS;
    public static final int MAX_ARG = (1 << ARG_BITS) - 1;
    public static final int MAX_TYPE = (1 << TYPE_BITS) - 1;

    private long[] times = new long[256];
    private long[] tags = new long[256];
    private int size;
    private long sequence;

    public void schedule(final long time, final int type, final int arg) {
        if (size == times.length) {
            times = java.util.Arrays.copyOf(times, size * 2);
            tags = java.util.Arrays.copyOf(tags, size * 2);
        }
        final long tag = (sequence++ << SEQUENCE_SHIFT) | ((long) type << ARG_BITS) | arg;
        int child = size++;
        while (child > 0) {
            final int parent = (child - 1) >>> 1;
            final long parentTime = times[parent];
            if (parentTime < time || (parentTime == time && tags[parent] < tag)) {
                break;
            }
            times[child] = parentTime;
            tags[child] = tags[parent];
            child = parent;
        }
        times[child] = time;
        tags[child] = tag;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Time of the earliest event; only when not empty. */
    public long nextTime() {
        return times[0];
    }

    /** Removes the earliest event and returns its tag; decode it with {@link #type} and {@link #arg}. */
    public long poll() {
        final long head = tags[0];
        final int last = --size;
        final long time = times[last];
        final long tag = tags[last];
        int parent = 0;
        while (true) {
            int child = 2 * parent + 1;
            if (child >= last) {
                break;
            }
            final int right = child + 1;
            if (right < last && (times[right] < times[child] || (times[right] == times[child] && tags[right] < tags[child]))) {
                child = right;
            }
            if (time < times[child] || (time == times[child] && tag < tags[child])) {
                break;
            }
            times[parent] = times[child];
            tags[parent] = tags[child];
            parent = child;
        }
        times[parent] = time;
        tags[parent] = tag;
        return head;
    }

    public static int type(final long tag) {
        return (int) (tag >>> ARG_BITS) & MAX_TYPE;
    }

    public static int arg(final long tag) {
        return (int) tag & MAX_ARG;
    }

    public void clear() {
        size = 0;
        sequence = 0;
    }
}
