package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.time.LinkRate;

/**
 * A host's own link: frames leave one after another at its rate, so that an initial window goes out at line rate
 * and not as one burst into the kernel. The same arithmetic as the simulator's host links: a frame starts when the
 * link is free, and holds it for its serialisation time. Times in nanoseconds.
 */
final class OutgoingLink {
    private final long dataNanos;
    private final long controlNanos;
    private long free;
    private long[] due = new long[64];
    private int[] kind = new int[64];
    private int[] flow = new int[64];
    private int[] sequence = new int[64];
    private int[] pull = new int[64];
    private int head;
    private int size;

    OutgoingLink(final LinkRate rate, final int dataFrameBytes, final int controlFrameBytes) {
        this.dataNanos = Math.max(1, rate.serialisation(dataFrameBytes) / 1000);
        this.controlNanos = Math.max(1, rate.serialisation(controlFrameBytes) / 1000);
    }

    /** One data frame's time on the link: the pull pacer's period. */
    long dataNanos() {
        return dataNanos;
    }

    void add(final int frameKind, final int frameFlow, final int frameSequence, final int framePull, final long now, final boolean data) {
        if (size == due.length) {
            grow();
        }
        final long begin = Math.max(now, free);
        free = begin + (data ? dataNanos : controlNanos);
        final int at = (head + size) & (due.length - 1);
        due[at] = begin;
        kind[at] = frameKind;
        flow[at] = frameFlow;
        sequence[at] = frameSequence;
        pull[at] = framePull;
        size++;
    }

    /** Whether the head frame may leave at {@code now}. */
    boolean ready(final long now) {
        return size > 0 && due[head] <= now;
    }

    /** When the head frame may leave; {@link Long#MAX_VALUE} when nothing waits. */
    long nextDue() {
        return size == 0 ? Long.MAX_VALUE : due[head];
    }

    int headKind() {
        return kind[head];
    }

    int headFlow() {
        return flow[head];
    }

    int headSequence() {
        return sequence[head];
    }

    int headPull() {
        return pull[head];
    }

    void removeHead() {
        head = (head + 1) & (due.length - 1);
        size--;
    }

    int size() {
        return size;
    }

    private void grow() {
        final int capacity = due.length * 2;
        final long[] newDue = new long[capacity];
        final int[] newKind = new int[capacity];
        final int[] newFlow = new int[capacity];
        final int[] newSequence = new int[capacity];
        final int[] newPull = new int[capacity];
        for (int i = 0; i < size; i++) {
            final int at = (head + i) & (due.length - 1);
            newDue[i] = due[at];
            newKind[i] = kind[at];
            newFlow[i] = flow[at];
            newSequence[i] = sequence[at];
            newPull[i] = pull[at];
        }
        due = newDue;
        kind = newKind;
        flow = newFlow;
        sequence = newSequence;
        pull = newPull;
        head = 0;
    }
}
