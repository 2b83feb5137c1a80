package io.trimswitch.uet;

/**
 * Connections that carry messages: per flow, where each message ends in the flow's packets and when it is queued
 * for sending (in the driver's time unit). A message is sent once it is queued and the ones before it are sent.
 */
public final class UetMessages implements UetFlows {
    private final int[][] ends;
    private final long[][] starts;

    /**
     * @param ends   per flow, each message's end in packets, rising (a message has at least one packet)
     * @param starts per flow, when each message is queued, never earlier than the one before
     */
    public UetMessages(final int[][] ends, final long[][] starts) {
        if (ends.length != starts.length) {
            throw new IllegalArgumentException(ends.length + " flows of message ends, " + starts.length + " of starts");
        }
        for (int flow = 0; flow < ends.length; flow++) {
            if (ends[flow].length == 0 || ends[flow].length != starts[flow].length) {
                throw new IllegalArgumentException("flow " + flow + ": " + ends[flow].length + " message ends, " + starts[flow].length + " starts");
            }
            for (int m = 0; m < ends[flow].length; m++) {
                if (ends[flow][m] <= (m == 0 ? 0 : ends[flow][m - 1]) || m > 0 && starts[flow][m] < starts[flow][m - 1]) {
                    throw new IllegalArgumentException("flow " + flow + ": message " + m + " ends at packet " + ends[flow][m]
                        + " or starts before the one before it");
                }
            }
        }
        this.ends = ends;
        this.starts = starts;
    }

    /** One message per flow, the whole flow, queued at {@code start[f]}. */
    public static UetMessages single(final int[] size, final long[] start) {
        final int[][] ends = new int[size.length][];
        final long[][] starts = new long[size.length][];
        for (int flow = 0; flow < size.length; flow++) {
            ends[flow] = new int[] {size[flow]};
            starts[flow] = new long[] {start[flow]};
        }
        return new UetMessages(ends, starts);
    }

    @Override
    public int flows() {
        return ends.length;
    }

    @Override
    public int size(final int flow) {
        return ends[flow][ends[flow].length - 1];
    }

    @Override
    public int messages(final int flow) {
        return ends[flow].length;
    }

    @Override
    public int messageEnd(final int flow, final int message) {
        return ends[flow][message];
    }

    /** When message {@code message} of {@code flow} is queued. */
    public long messageStart(final int flow, final int message) {
        return starts[flow][message];
    }
}
