package io.trimswitch.runtime;

import java.util.Arrays;

/**
 * The NDP receivers: a whole packet is ACKed, a header (the switch trimmed its payload) is NACKed, and either way,
 * while the flow is unfinished, the receiving host's pull pacer is asked for one more packet.
 */
final class NdpReceiver {
    private final NdpFlowPlan plan;
    private final HostLinks links;
    private final boolean[][] received;
    private final int[] receivedCount;
    private final long[] completion;
    private int completed;
    private PullPacer pacer;

    NdpReceiver(final NdpFlowPlan plan, final HostLinks links) {
        this.plan = plan;
        this.links = links;
        final int flows = plan.flows();
        this.received = new boolean[flows][];
        for (int flow = 0; flow < flows; flow++) {
            received[flow] = new boolean[plan.size(flow)];
        }
        this.receivedCount = new int[flows];
        this.completion = new long[flows];
        Arrays.fill(completion, -1);
    }

    /** The pacer this receiver asks for pulls (it asks the receiver which flows still wait, so it comes second). */
    void pullFrom(final PullPacer pullPacer) {
        this.pacer = pullPacer;
    }

    void onData(final int flow, final int sequence, final boolean header, final long now) {
        final int link = links.receiverLink(flow);
        if (header) {
            links.transmit(link, now, HostLinks.NACK, flow, sequence, 0);
        } else {
            if (!received[flow][sequence]) {
                received[flow][sequence] = true;
                if (++receivedCount[flow] == plan.size(flow)) {
                    completion[flow] = now;
                    completed++;
                }
            }
            links.transmit(link, now, HostLinks.ACK, flow, sequence, 0);
        }
        if (receiving(flow)) {
            pacer.request(link, flow, now);
        }
    }

    /** Whether {@code flow} still waits for some of its packets. */
    boolean receiving(final int flow) {
        return receivedCount[flow] < plan.size(flow);
    }

    /** When the flow's last missing packet arrived; -1 while it has not. */
    long completion(final int flow) {
        return completion[flow];
    }

    int completed() {
        return completed;
    }

    void reset() {
        for (final boolean[] flow : received) {
            Arrays.fill(flow, false);
        }
        Arrays.fill(receivedCount, 0);
        Arrays.fill(completion, -1);
        completed = 0;
    }
}
