package io.trimswitch.simulator;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;

/**
 * The hosts' links into the switch as every transport's frames travel them: a link sends one frame after another at
 * its rate, and a frame reaches the switch a propagation delay after its last bit left. A link keeps the frames on it
 * as entries of a FIFO, the same number for each frame, which the transport packs and reads as it likes (it builds the
 * frame in a buffer only when it arrives); the head frame's arrival is an event on the switch's queue.
 */
public final class HostLinkTimeline {
    /** Per link, one data frame's and one control frame's serialisation time. */
    private final long[] packetTime;
    private final long[] controlTime;
    private final long propagation;
    private final int entriesPerFrame;
    private final long[] linkFree;
    private final TimedIntFifo[] onLink;

    /** Links whose frames take {@code entriesPerFrame} entries (two ints each), link l at the serialisation times at l. */
    public HostLinkTimeline(final long[] packetTime, final long[] controlTime, final long propagation, final int entriesPerFrame) {
        this.packetTime = packetTime.clone();
        this.controlTime = controlTime.clone();
        this.propagation = propagation;
        this.entriesPerFrame = entriesPerFrame;
        linkFree = new long[packetTime.length];
        onLink = new TimedIntFifo[packetTime.length];
        for (int link = 0; link < onLink.length; link++) {
            onLink[link] = TimedIntFifo.ofPairs(64);
        }
    }

    /** A frame goes out on {@code link} behind whatever is already on it: when it reaches the switch. */
    public long send(final int link, final long now, final boolean data) {
        final long begin = Math.max(now, linkFree[link]);
        linkFree[link] = begin + (data ? packetTime[link] : controlTime[link]);
        return linkFree[link] + propagation;
    }

    /** One entry of the frame that arrives at {@code arrival}; the last entry of a frame on an idle link schedules its arrival. */
    public void put(final EndHosts.Switch sw, final int link, final long arrival, final int first, final int second) {
        final TimedIntFifo fifo = onLink[link];
        fifo.add(arrival, first, second);
        if (fifo.size() == entriesPerFrame) {
            sw.schedule(arrival, EventType.LINK_TO_SWITCH, link);
        }
    }

    public int headFirst(final int link) {
        return onLink[link].headFirst();
    }

    public int headSecond(final int link) {
        return onLink[link].headSecond();
    }

    public void removeHead(final int link) {
        onLink[link].removeHead();
    }

    /** The head frame's entries are read: the next frame's arrival, if one is on the link. */
    public void next(final EndHosts.Switch sw, final int link) {
        final TimedIntFifo fifo = onLink[link];
        if (!fifo.isEmpty()) {
            sw.schedule(fifo.headTime(), EventType.LINK_TO_SWITCH, link);
        }
    }

    /** When {@code link} has sent what it holds. */
    public long free(final int link) {
        return linkFree[link];
    }

    public long propagationPicos() {
        return propagation;
    }

    /** Per link, one data frame's serialisation time. */
    public long[] packetTimes() {
        return packetTime.clone();
    }

    public int links() {
        return linkFree.length;
    }

    public void reset() {
        Arrays.fill(linkFree, 0);
        for (final TimedIntFifo fifo : onLink) {
            fifo.clear();
        }
    }
}
