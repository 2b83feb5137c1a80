package io.trimswitch.dataplane.util;

/**
 * A FIFO of (time, int) pairs that grows by doubling: a delay line for things that all wait the same
 * time (packets in a recirculation loop, congestion notifications in flight), so arrival order is
 * due order. Growth allocates only when the backlog reaches a new high.
 */
public final class TimedIntFifo {
    private long[] times;
    private int[] values;
    private int head;
    private int size;

    public TimedIntFifo(final int initialCapacity) {
        final int capacity = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        times = new long[capacity];
        values = new int[capacity];
    }

    public void add(final long time, final int value) {
        if (size == times.length) {
            grow();
        }
        final int index = (head + size) & (times.length - 1);
        times[index] = time;
        values[index] = value;
        size++;
    }

    /**
     * Adds in time order, after every entry of the same time: for things sent by several threads whose delays differ
     * (NOTIFYs from recirculation ports on other shards), which almost always come in order and so cost an append.
     */
    public void addInTimeOrder(final long time, final int value) {
        add(time, value);
        final int mask = times.length - 1;
        for (int i = size - 1; i > 0; i--) {
            final int at = (head + i) & mask;
            final int before = (head + i - 1) & mask;
            if (times[before] <= time) {
                break;
            }
            times[at] = times[before];
            values[at] = values[before];
            times[before] = time;
            values[before] = value;
        }
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Due time of the oldest entry; only when not empty. */
    public long headTime() {
        return times[head];
    }

    /** Value of the oldest entry; only when not empty. */
    public int headValue() {
        return values[head];
    }

    public int removeHead() {
        final int value = values[head];
        head = (head + 1) & (times.length - 1);
        size--;
        return value;
    }

    public void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        final long[] newTimes = new long[times.length * 2];
        final int[] newValues = new int[values.length * 2];
        for (int i = 0; i < size; i++) {
            final int index = (head + i) & (times.length - 1);
            newTimes[i] = times[index];
            newValues[i] = values[index];
        }
        times = newTimes;
        values = newValues;
        head = 0;
    }
}
