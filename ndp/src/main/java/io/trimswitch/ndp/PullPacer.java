package io.trimswitch.ndp;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * NDP's pull pacers, one per receiving host and shared by every flow arriving there: each sends one PULL per MTU
 * time of its host's link, to whichever unfinished flow asked first, so that the senders' packets arrive at the
 * rate the link can take.
 */
public final class PullPacer {
    private final NdpFrames frames;
    private final NdpTimers timers;
    /** Per host link, one MTU's serialisation time on it, in the driver's time unit. */
    private final long[] packetTime;
    /** Whether a flow still waits for packets: a finished flow's requests are skipped. */
    private final IntPredicate receiving;
    private final TimedIntFifo[] requests;
    private final long[] nextPull;
    private final boolean[] tickPending;
    /** Per flow, PULLs sent: the pull number the sender sees. */
    private final int[] pulls;

    public PullPacer(
        final int links, final int flows, final long packetTime, final NdpFrames frames, final NdpTimers timers,
        final IntPredicate receiving) {
        this(sameOnEvery(links, packetTime), flows, frames, timers, receiving);
    }

    /** Pacers for hosts whose links differ: link l's host pulls once per {@code packetTime[l]}. */
    public PullPacer(
        final long[] packetTime, final int flows, final NdpFrames frames, final NdpTimers timers, final IntPredicate receiving) {
        final int links = packetTime.length;
        this.frames = frames;
        this.timers = timers;
        this.packetTime = packetTime.clone();
        this.receiving = receiving;
        this.requests = new TimedIntFifo[links];
        for (int link = 0; link < links; link++) {
            requests[link] = new TimedIntFifo(64);
        }
        this.nextPull = new long[links];
        this.tickPending = new boolean[links];
        this.pulls = new int[flows];
    }

    /** {@code flow} asks the pacer of its receiving host's {@code link} for one more packet. */
    public void request(final int link, final int flow, final long now) {
        requests[link].add(now, flow);
        if (!tickPending[link]) {
            tickPending[link] = true;
            timers.pullAt(Math.max(now, nextPull[link]), link);
        }
    }

    /** The pacer of {@code link} may pull: one PULL to the first request whose flow is unfinished. */
    public void tick(final int link, final long now) {
        final TimedIntFifo waiting = requests[link];
        while (!waiting.isEmpty()) {
            final int flow = waiting.removeHead();
            if (receiving.test(flow)) {
                pulls[flow]++;
                frames.transmit(NdpFrames.PULL, flow, 0, pulls[flow], now);
                nextPull[link] = now + packetTime[link];
                break;
            }
        }
        if (waiting.isEmpty()) {
            tickPending[link] = false;
        } else {
            timers.pullAt(nextPull[link], link);
        }
    }

    private static long[] sameOnEvery(final int links, final long packetTime) {
        final long[] times = new long[links];
        Arrays.fill(times, packetTime);
        return times;
    }

    /** PULLs sent to {@code flow}. */
    public int pulls(final int flow) {
        return pulls[flow];
    }

    public void reset() {
        for (final TimedIntFifo fifo : requests) {
            fifo.clear();
        }
        Arrays.fill(nextPull, 0);
        Arrays.fill(tickPending, false);
        Arrays.fill(pulls, 0);
    }
}
