package io.trimswitch.ndp;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * NDP's receivers: a whole packet is ACKed, a header (the switch trimmed its payload) is NACKed, and either way,
 * while the flow is unfinished, the receiving host's pull pacer is asked for one more packet.
 */
public final class NdpReceiver {
    private final NdpFlows plan;
    private final NdpFrames frames;
    /** The link (pull pacer) of the host that receives a flow. */
    private final IntUnaryOperator receiverLink;
    private final boolean[][] received;
    private final int[] receivedCount;
    private final long[] completion;
    private int completed;
    private PullPacer pacer;

    public NdpReceiver(final NdpFlows plan, final NdpFrames frames, final IntUnaryOperator receiverLink) {
        this.plan = plan;
        this.frames = frames;
        this.receiverLink = receiverLink;
        final int flows = plan.flows();
        this.received = new boolean[flows][];
        this.receivedCount = new int[flows];
        this.completion = new long[flows];
        for (int flow = 0; flow < flows; flow++) {
            open(flow);
        }
    }

    /** The pacer this receiver asks for pulls (it asks the receiver which flows still wait, so it comes second). */
    public void pullFrom(final PullPacer pullPacer) {
        this.pacer = pullPacer;
    }

    /** (Re)starts {@code flow} with the size the plan now gives it: a live receiver learns a flow's size from its first packet. */
    public void open(final int flow) {
        received[flow] = new boolean[plan.size(flow)];
        receivedCount[flow] = 0;
        completion[flow] = -1;
    }

    /** The plan now gives {@code flow} fewer packets (its sender cut it short): it may be complete already. */
    public void shrunk(final int flow, final long now) {
        if (completion[flow] < 0 && receivedCount[flow] >= plan.size(flow)) {
            completion[flow] = now;
            completed++;
        }
    }

    public void onData(final int flow, final int sequence, final boolean header, final long now) {
        if (header) {
            frames.transmit(NdpFrames.NACK, flow, sequence, 0, now);
        } else {
            if (!received[flow][sequence]) {
                received[flow][sequence] = true;
                if (++receivedCount[flow] == plan.size(flow)) {
                    completion[flow] = now;
                    completed++;
                }
            }
            frames.transmit(NdpFrames.ACK, flow, sequence, 0, now);
        }
        if (receiving(flow)) {
            pacer.request(receiverLink.applyAsInt(flow), flow, now);
        } else {
            pacer.finished(receiverLink.applyAsInt(flow), flow);
        }
    }

    /** Whether {@code flow} still waits for some of its packets. */
    public boolean receiving(final int flow) {
        return receivedCount[flow] < plan.size(flow);
    }

    /** Whether {@code sequence} of {@code flow} has arrived whole. */
    public boolean holds(final int flow, final int sequence) {
        return received[flow][sequence];
    }

    public int receivedPackets(final int flow) {
        return receivedCount[flow];
    }

    /** When the flow's last missing packet arrived; -1 while it has not. */
    public long completion(final int flow) {
        return completion[flow];
    }

    public int completed() {
        return completed;
    }

    public void reset() {
        for (final boolean[] flow : received) {
            Arrays.fill(flow, false);
        }
        Arrays.fill(receivedCount, 0);
        Arrays.fill(completion, -1);
        completed = 0;
    }
}
