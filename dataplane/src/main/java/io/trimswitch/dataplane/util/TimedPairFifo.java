package io.trimswitch.dataplane.util;

/**
 * A FIFO of (time, int, int) entries that grows by doubling: a delay line for things described by two
 * numbers (a host link carrying packet descriptors). Growth allocates only at a new high.
 */
public final class TimedPairFifo {
    private long[] times;
    private int[] first;
    private int[] second;
    private int head;
    private int size;

    public TimedPairFifo(final int initialCapacity) {
        final int capacity = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        times = new long[capacity];
        first = new int[capacity];
        second = new int[capacity];
    }

    public void add(final long time, final int a, final int b) {
        if (size == times.length) {
            grow();
        }
        final int index = (head + size) & (times.length - 1);
        times[index] = time;
        first[index] = a;
        second[index] = b;
        size++;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public long headTime() {
        return times[head];
    }

    public int headFirst() {
        return first[head];
    }

    public int headSecond() {
        return second[head];
    }

    public void removeHead() {
        head = (head + 1) & (times.length - 1);
        size--;
    }

    public void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        final int capacity = times.length * 2;
        final long[] newTimes = new long[capacity];
        final int[] newFirst = new int[capacity];
        final int[] newSecond = new int[capacity];
        for (int i = 0; i < size; i++) {
            final int index = (head + i) & (times.length - 1);
            newTimes[i] = times[index];
            newFirst[i] = first[index];
            newSecond[i] = second[index];
        }
        times = newTimes;
        first = newFirst;
        second = newSecond;
        head = 0;
    }
}
