package io.trimswitch.runtime;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * NDP's pull pacers, one per receiving host and shared by every flow arriving there: each sends one PULL per MTU
 * time of its host's link, to whichever unfinished flow asked first, so that the senders' packets arrive at the
 * rate the link can take.
 */
final class PullPacer {
    private final HostLinks links;
    /** Whether a flow still waits for packets: a finished flow's requests are skipped. */
    private final IntPredicate receiving;
    private final TimedIntFifo[] requests;
    private final long[] nextPull;
    private final boolean[] tickPending;
    /** Per flow, PULLs sent: the pull number the sender sees. */
    private final int[] pulls;
    private NdpHosts.Switch sw;

    PullPacer(final int links, final int flows, final HostLinks hostLinks, final IntPredicate receiving) {
        this.links = hostLinks;
        this.receiving = receiving;
        this.requests = new TimedIntFifo[links];
        for (int link = 0; link < links; link++) {
            requests[link] = new TimedIntFifo(64);
        }
        this.nextPull = new long[links];
        this.tickPending = new boolean[links];
        this.pulls = new int[flows];
    }

    void attach(final NdpHosts.Switch attached) {
        this.sw = attached;
    }

    /** {@code flow} asks the pacer of its receiving host's {@code link} for one more packet. */
    void request(final int link, final int flow, final long now) {
        requests[link].add(now, flow);
        if (!tickPending[link]) {
            tickPending[link] = true;
            sw.schedule(Math.max(now, nextPull[link]), EventType.PULL_TICK, link);
        }
    }

    /** The pacer of {@code link} may pull: one PULL to the first request whose flow is unfinished. */
    void tick(final int link, final long now) {
        final TimedIntFifo waiting = requests[link];
        while (!waiting.isEmpty()) {
            final int flow = waiting.removeHead();
            if (receiving.test(flow)) {
                pulls[flow]++;
                links.transmit(link, now, HostLinks.PULL, flow, 0, pulls[flow]);
                nextPull[link] = now + links.packetTime();
                break;
            }
        }
        if (waiting.isEmpty()) {
            tickPending[link] = false;
        } else {
            sw.schedule(nextPull[link], EventType.PULL_TICK, link);
        }
    }

    void reset() {
        for (final TimedIntFifo fifo : requests) {
            fifo.clear();
        }
        Arrays.fill(nextPull, 0);
        Arrays.fill(tickPending, false);
        Arrays.fill(pulls, 0);
    }
}
