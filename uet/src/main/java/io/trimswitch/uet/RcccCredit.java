package io.trimswitch.uet;

import java.util.Arrays;

/**
 * RCCC's side at the senders: each flow's credit, in bytes on the wire. A flow starts speculating with the largest
 * credit (1.5 bandwidth-delay products) and sends while it holds any, each packet spending its size (so the credit may
 * end below zero); the first ACK, NACK or PULL from its receiver ends the speculation, and what is left of the first
 * credit is dropped. From then on credit comes in PULLs: each carries the receiver's running count of credit granted,
 * in quanta of 256 bytes, and the sender adds what it had not counted yet, never above the largest credit. Each data
 * packet carries the pull target, the credit the flow still asks for, in the same running count.
 */
public final class RcccCredit {
    /** Credit is counted in quanta of this many bytes. */
    public static final int QUANTUM = 256;

    private final long maxCredit;
    private final int packetBytes;
    private final long[] credit;
    private final long[] pulled;
    private final boolean[] speculating;

    /**
     * @param flows       the flows
     * @param maxCredit   the most credit a flow holds, bytes: 1.5 bandwidth-delay products, as the sender's largest window
     * @param packetBytes a data packet on the wire
     */
    public RcccCredit(final int flows, final long maxCredit, final int packetBytes) {
        if (maxCredit < packetBytes || packetBytes <= 0) {
            throw new IllegalArgumentException("RCCC needs a largest credit of at least one packet, got " + maxCredit + " bytes");
        }
        this.maxCredit = maxCredit;
        this.packetBytes = packetBytes;
        credit = new long[flows];
        pulled = new long[flows];
        speculating = new boolean[flows];
    }

    /** The flow starts: it speculates with the largest credit. */
    void start(final int flow) {
        credit[flow] = maxCredit;
        pulled[flow] = 0;
        speculating[flow] = true;
    }

    /** Whether the flow holds any credit. */
    boolean canSend(final int flow) {
        return credit[flow] > 0;
    }

    void spend(final int flow, final int bytes) {
        credit[flow] -= bytes;
    }

    /** The receiver has answered: what is left of the speculative credit is dropped. */
    void stopSpeculating(final int flow) {
        if (speculating[flow]) {
            speculating[flow] = false;
            credit[flow] = Math.min(credit[flow], 0);
        }
    }

    /** A PULL with the receiver's count of {@code pullNumber} quanta granted: the new ones become credit. */
    void onPull(final int flow, final long pullNumber) {
        if (pullNumber > pulled[flow]) {
            credit[flow] = Math.min(credit[flow] + (pullNumber - pulled[flow]) * QUANTUM, maxCredit);
            pulled[flow] = pullNumber;
        }
    }

    /**
     * The pull target a data packet carries, in quanta of the running count: the bytes left to send (new and again), at most
     * {@code window} plus a packet when NSCC paces too (negative: it does not), at most the largest credit, less the credit
     * held (while speculating, at least a packet if new data waits), shared among the host's {@code sharing} flows waiting
     * for its link (when more than one).
     */
    long pullTarget(final int flow, final long backlogBytes, final long resendBytes, final long window, final int sharing) {
        long target = backlogBytes + resendBytes;
        if (window >= 0) {
            target = Math.min(target, window + packetBytes);
        }
        target = Math.min(target, maxCredit) - credit[flow];
        if (speculating[flow] && target < packetBytes && backlogBytes > 0) {
            target = packetBytes;
        }
        if (sharing > 1) {
            target /= sharing;
        }
        return Math.floorDiv(pulled[flow] * QUANTUM + target + QUANTUM - 1, QUANTUM);
    }

    /** The flow's credit now, bytes (negative: it spent more than it was granted). */
    public long credit(final int flow) {
        return credit[flow];
    }

    /** The largest credit a flow holds, bytes. */
    public long maxCredit() {
        return maxCredit;
    }

    void reset() {
        Arrays.fill(credit, 0);
        Arrays.fill(pulled, 0);
        Arrays.fill(speculating, false);
    }
}
