package io.trimswitch.ndp;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * NDP's pull pacers, one per receiving host and shared by every flow arriving there: each sends one PULL per MTU
 * time of its host's link, so that the senders' packets arrive at the rate the link can take. Which flow a PULL goes
 * to is the pacer's {@link Order}: the request that came first, or each flow in turn.
 */
public final class PullPacer {
    /** Which waiting request a pacer serves next. */
    public enum Order {
        /** The oldest request, whatever its flow: a flow whose round trip is shorter asks again sooner, and gets more. */
        ARRIVAL,
        /**
         * The flows of a host in turn, by flow number, one PULL each while they have requests waiting: every flow gets
         * the same share whatever its round trip (htsim's pacers, whose pull queue is fair between flows).
         */
        ROUND_ROBIN
    }

    private final NdpFrames frames;
    private final NdpTimers timers;
    /** Per host link, one MTU's serialisation time on it, in the driver's time unit. */
    private final long[] packetTime;
    /** Whether a flow still waits for packets: a finished flow's requests are skipped. */
    private final IntPredicate receiving;
    private final Order order;
    /** Arrival order: per link, the requests in the order they came. */
    private final TimedIntFifo[] requests;
    /** Round robin: per link, the flows that asked there, by flow number, and where the turn is. */
    private final int[][] members;
    private final int[] memberCount;
    private final int[] turn;
    private final int[] waitingOnLink;
    /** Round robin: per flow, its requests not yet served, and whether its host's pacer knows it. */
    private final int[] waiting;
    private final boolean[] member;
    private final long[] nextPull;
    private final boolean[] tickPending;
    /** Per flow, PULLs sent: the pull number the sender sees. */
    private final int[] pulls;

    public PullPacer(
        final int links, final int flows, final long packetTime, final NdpFrames frames, final NdpTimers timers,
        final IntPredicate receiving) {
        this(sameOnEvery(links, packetTime), flows, frames, timers, receiving, Order.ARRIVAL);
    }

    /** Pacers for hosts whose links differ: link l's host pulls once per {@code packetTime[l]}, in {@code order}. */
    public PullPacer(
        final long[] packetTime, final int flows, final NdpFrames frames, final NdpTimers timers, final IntPredicate receiving,
        final Order order) {
        final int links = packetTime.length;
        this.frames = frames;
        this.timers = timers;
        this.packetTime = packetTime.clone();
        this.receiving = receiving;
        this.order = order;
        final boolean arrival = order == Order.ARRIVAL;
        this.requests = new TimedIntFifo[arrival ? links : 0];
        for (int link = 0; link < requests.length; link++) {
            requests[link] = new TimedIntFifo(64);
        }
        this.members = new int[arrival ? 0 : links][];
        for (int link = 0; link < members.length; link++) {
            members[link] = new int[4];
        }
        this.memberCount = new int[members.length];
        this.turn = new int[members.length];
        this.waitingOnLink = new int[members.length];
        this.waiting = new int[arrival ? 0 : flows];
        this.member = new boolean[arrival ? 0 : flows];
        this.nextPull = new long[links];
        this.tickPending = new boolean[links];
        this.pulls = new int[flows];
    }

    /** {@code flow} asks the pacer of its receiving host's {@code link} for one more packet. */
    public void request(final int link, final int flow, final long now) {
        if (order == Order.ARRIVAL) {
            requests[link].add(now, flow);
        } else {
            if (!member[flow]) {
                join(link, flow);
            }
            waiting[flow]++;
            waitingOnLink[link]++;
        }
        if (!tickPending[link]) {
            tickPending[link] = true;
            timers.pullAt(Math.max(now, nextPull[link]), link);
        }
    }

    /** The pacer of {@code link} may pull: one PULL to the next unfinished flow that asked. */
    public void tick(final int link, final long now) {
        final int flow = order == Order.ARRIVAL ? nextByArrival(link) : nextInTurn(link);
        if (flow >= 0) {
            pulls[flow]++;
            frames.transmit(NdpFrames.PULL, flow, 0, pulls[flow], now);
            nextPull[link] = now + packetTime[link];
        }
        if (order == Order.ARRIVAL ? requests[link].isEmpty() : waitingOnLink[link] == 0) {
            tickPending[link] = false;
        } else {
            timers.pullAt(nextPull[link], link);
        }
    }

    /**
     * {@code flow}, received on {@code link}, has every packet: its requests will never be served. In turn, it leaves
     * its host's round at once, so that the turn moves on as if it had never been there.
     */
    public void finished(final int link, final int flow) {
        if (order == Order.ROUND_ROBIN && member[flow]) {
            leave(link, flow);
        }
    }

    private int nextByArrival(final int link) {
        final TimedIntFifo waitingRequests = requests[link];
        while (!waitingRequests.isEmpty()) {
            final int flow = waitingRequests.removeHead();
            if (receiving.test(flow)) {
                return flow;
            }
        }
        return -1;
    }

    private int nextInTurn(final int link) {
        while (waitingOnLink[link] > 0) {
            if (turn[link] >= memberCount[link]) {
                turn[link] = 0;
            }
            final int flow = members[link][turn[link]];
            if (waiting[flow] == 0) {
                turn[link]++;
            } else if (receiving.test(flow)) {
                waiting[flow]--;
                waitingOnLink[link]--;
                turn[link]++;
                return flow;
            } else {
                leave(link, flow);
            }
        }
        return -1;
    }

    /** {@code flow} joins its host's round in flow order; the turn stays with the flow it was at. */
    private void join(final int link, final int flow) {
        int[] flows = members[link];
        final int count = memberCount[link];
        if (count == flows.length) {
            flows = Arrays.copyOf(flows, 2 * count);
            members[link] = flows;
        }
        int at = count;
        while (at > 0 && flows[at - 1] > flow) {
            flows[at] = flows[at - 1];
            at--;
        }
        flows[at] = flow;
        memberCount[link] = count + 1;
        if (at <= turn[link]) {
            turn[link]++;
        }
        member[flow] = true;
    }

    /** {@code flow} leaves its host's round with its requests; the turn passes to the flow after it. */
    private void leave(final int link, final int flow) {
        final int[] flows = members[link];
        final int count = memberCount[link];
        int at = 0;
        while (flows[at] != flow) {
            at++;
        }
        System.arraycopy(flows, at + 1, flows, at, count - at - 1);
        memberCount[link] = count - 1;
        if (at < turn[link]) {
            turn[link]--;
        }
        waitingOnLink[link] -= waiting[flow];
        waiting[flow] = 0;
        member[flow] = false;
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
        Arrays.fill(memberCount, 0);
        Arrays.fill(turn, 0);
        Arrays.fill(waitingOnLink, 0);
        Arrays.fill(waiting, 0);
        Arrays.fill(member, false);
        Arrays.fill(nextPull, 0);
        Arrays.fill(tickPending, false);
        Arrays.fill(pulls, 0);
    }
}
