package io.trimswitch.uet;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Ultra Ethernet's receivers: a whole packet is acknowledged at once when it is ECN-marked, the flow's first, asked
 * for (its sender set AR) or a duplicate, and otherwise once {@code ackBytes} have arrived since the last ACK; each ACK
 * carries the cumulative acknowledgement, the packet it answers, its entropy and mark, and how many packets the
 * receiver holds. A trimmed packet (a header) is answered with a NACK that says whether the last hop trimmed it.
 */
public final class UetReceiver {
    private final UetFlows plan;
    private final UetFrames frames;
    private final int packetBytes;
    private final int ackBytes;
    private final BitSet[] held;
    private final int[] expected;
    private final int[] count;
    private final int[] unacknowledgedBytes;
    private final int[] outOfOrder;
    private final boolean[] ackRequested;
    private final long[] completion;
    private final long[] trimmed;
    private int completed;

    public UetReceiver(final UetFlows plan, final UetFrames frames, final int packetBytes, final int ackBytes) {
        this.plan = plan;
        this.frames = frames;
        this.packetBytes = packetBytes;
        this.ackBytes = ackBytes;
        final int flows = plan.flows();
        held = new BitSet[flows];
        for (int flow = 0; flow < flows; flow++) {
            // A bit per packet, sized once: setting one never grows it.
            held[flow] = new BitSet(plan.size(flow));
        }
        expected = new int[flows];
        count = new int[flows];
        unacknowledgedBytes = new int[flows];
        outOfOrder = new int[flows];
        ackRequested = new boolean[flows];
        completion = new long[flows];
        trimmed = new long[flows];
        Arrays.fill(completion, -1);
    }

    public void onData(final int flow, final int psn, final int entropy, final boolean marked, final boolean ackRequest, final long now) {
        unacknowledgedBytes[flow] += packetBytes;
        if (held[flow].get(psn)) {
            // The sender is confused: tell it at once.
            final int base = marked ? psn : sackBase(flow, psn);
            frames.ack(flow, psn, expected[flow], count[flow], entropy, marked, base, sackBits(flow, base), now);
            unacknowledgedBytes[flow] = 0;
            return;
        }
        boolean atOnce = count[flow] == 0;
        held[flow].set(psn);
        if (++count[flow] == plan.size(flow)) {
            completion[flow] = now;
            completed++;
        }
        if (ackRequest) {
            atOnce = true;
            ackRequested[flow] = true;
        }
        if (psn == expected[flow]) {
            expected[flow] = Math.min(held[flow].nextClearBit(expected[flow]), plan.size(flow));
            outOfOrder[flow] = count[flow] - expected[flow];
            if (outOfOrder[flow] == 0 && ackRequested[flow]) {
                atOnce = true;
                ackRequested[flow] = false;
            }
        } else {
            outOfOrder[flow]++;
        }
        if (marked || unacknowledgedBytes[flow] >= ackBytes || atOnce) {
            final int base = marked || ackRequest ? psn : sackBase(flow, psn);
            frames.ack(flow, psn, expected[flow], count[flow], entropy, marked, base, sackBits(flow, base), now);
            unacknowledgedBytes[flow] = 0;
        }
    }

    /**
     * A header of {@code psn}: its payload was trimmed on the way, by the last hop or before. Returns whether it was NACKed
     * (false: the receiver holds the packet already, and says so in an ACK).
     */
    public boolean onTrimmed(final int flow, final int psn, final int entropy, final boolean lastHop, final boolean marked, final long now) {
        trimmed[flow]++;
        if (held[flow].get(psn)) {
            final int base = sackBase(flow, psn);
            frames.ack(flow, psn, expected[flow], count[flow], entropy, false, base, sackBits(flow, base), now);
            return false;
        }
        frames.nack(flow, psn, expected[flow], count[flow], entropy, lastHop, marked, now);
        return true;
    }

    /** Where a selective acknowledgement prompted by {@code psn} starts: 63 packets below it, and above the cumulative one. */
    private int sackBase(final int flow, final int psn) {
        return Math.max(psn - 63, expected[flow] + 1);
    }

    /** Bit i: the receiver holds packet {@code base} + i beyond its cumulative acknowledgement. */
    private long sackBits(final int flow, final int base) {
        final BitSet flowHeld = held[flow];
        long bits = 0;
        final int end = Math.min(plan.size(flow), base + 64);
        for (int psn = Math.max(base, expected[flow]); psn < end; psn++) {
            if (flowHeld.get(psn)) {
                bits |= 1L << (psn - base);
            }
        }
        return bits;
    }

    /** When the flow's last missing packet arrived; -1 while one is missing. */
    public long completion(final int flow) {
        return completion[flow];
    }

    public int completed() {
        return completed;
    }

    public long trimmed(final int flow) {
        return trimmed[flow];
    }

    public int held(final int flow) {
        return count[flow];
    }

    public void reset() {
        for (final BitSet flow : held) {
            flow.clear();
        }
        Arrays.fill(expected, 0);
        Arrays.fill(count, 0);
        Arrays.fill(unacknowledgedBytes, 0);
        Arrays.fill(outOfOrder, 0);
        Arrays.fill(ackRequested, false);
        Arrays.fill(completion, -1);
        Arrays.fill(trimmed, 0);
        completed = 0;
    }
}
