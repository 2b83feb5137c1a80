package io.trimswitch.switching.source;

/**
 * When each open-loop sender emits its next packet. All senders blast at the same period from their
 * own start offset, so their emissions repeat in one fixed cyclic order: sorted once by offset, the next
 * sender is always the one after the last, and no heap operation is needed per packet.
 */
public final class SenderSchedule {
    private final int[] order;
    private final long[] firstArrival;
    private final long period;
    private final int packets;
    private int position;
    private long round;

    /**
     * @param firstArrival per flow, when its first packet has fully arrived at the switch
     * @param period       time between two packets of one sender
     * @param packets      packets each sender sends
     */
    public SenderSchedule(final long[] firstArrival, final long period, final int packets) {
        this.firstArrival = firstArrival.clone();
        this.period = period;
        this.packets = packets;
        final Integer[] flows = new Integer[firstArrival.length];
        for (int flow = 0; flow < flows.length; flow++) {
            flows[flow] = flow;
        }
        // Offsets lie within one period, so this order repeats every round; ties go to the lower flow.
        java.util.Arrays.sort(flows, (a, b) -> a.equals(b) ? 0
            : firstArrival[a] != firstArrival[b] ? Long.compare(firstArrival[a], firstArrival[b]) : Integer.compare(a, b));
        this.order = new int[flows.length];
        for (int i = 0; i < flows.length; i++) {
            order[i] = flows[i];
        }
        for (final long first : firstArrival) {
            if (first - firstArrival[order[0]] >= period) {
                throw new IllegalArgumentException("sender offsets must lie within one period");
            }
        }
    }

    public boolean hasNext() {
        return order.length > 0 && round < packets;
    }

    /** Time of the next emission; {@link Long#MAX_VALUE} when every sender is done. */
    public long nextTime() {
        return hasNext() ? firstArrival[order[position]] + round * period : Long.MAX_VALUE;
    }

    public int nextFlow() {
        return order[position];
    }

    /** The sequence number the next emission carries. */
    public int nextSequence() {
        return (int) round;
    }

    public void advance() {
        if (++position == order.length) {
            position = 0;
            round++;
        }
    }

    public void reset() {
        position = 0;
        round = 0;
    }
}
