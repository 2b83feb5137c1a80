package io.trimswitch.recirc;

import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipelines.IngressPipeline;

/**
 * NOTIFYs on their way to the ingress pipelines in one thread: every signal has the same latency, so
 * they are due in the order they were sent and a FIFO holds them until {@link #deliverDue}.
 */
public final class DelayedNotifications implements NotifyChannel {
    private static final int PIPELINE_BITS = 8;

    /** Told when a NOTIFY has been scheduled, so a virtual-time runtime can wake at its due time. */
    @FunctionalInterface
    public interface Scheduled {
        void notifyDueAt(long time);
    }

    private final IngressPipeline[] pipelines;
    private final Scheduled scheduled;
    /** Per NOTIFY: when it is due, the port and pipeline, and its age in nanoseconds. */
    private final TimedIntFifo inFlight = TimedIntFifo.ofPairs(256);
    private long lastScheduled = Long.MIN_VALUE;

    public DelayedNotifications(final IngressPipeline[] pipelines, final Scheduled scheduled) {
        if (pipelines.length > 1 << PIPELINE_BITS) {
            throw new IllegalArgumentException("at most " + (1 << PIPELINE_BITS) + " pipelines");
        }
        this.pipelines = pipelines;
        this.scheduled = scheduled;
    }

    @Override
    public void send(final int egressPort, final int pipeline, final long due) {
        send(egressPort, pipeline, due, 0);
    }

    @Override
    public void send(final int egressPort, final int pipeline, final long due, final long agePicos) {
        inFlight.add(due, (egressPort << PIPELINE_BITS) | pipeline, (int) Math.min(Integer.MAX_VALUE, agePicos / 1000));
        // One wake-up delivers everything due at that instant.
        if (due != lastScheduled) {
            lastScheduled = due;
            scheduled.notifyDueAt(due);
        }
    }

    /** Delivers every NOTIFY due by {@code now}; returns how many. */
    public int deliverDue(final long now) {
        int delivered = 0;
        while (!inFlight.isEmpty() && inFlight.headTime() <= now) {
            final int signal = inFlight.headFirst();
            final long agePicos = inFlight.headSecond() * 1000L;
            inFlight.removeHead();
            pipelines[signal & ((1 << PIPELINE_BITS) - 1)].onCongestionNotify(signal >>> PIPELINE_BITS, agePicos, now);
            delivered++;
        }
        return delivered;
    }

    public void reset() {
        inFlight.clear();
        lastScheduled = Long.MIN_VALUE;
    }
}
