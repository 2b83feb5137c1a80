package io.trimswitch.recirc;

import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipeline.IngressPipeline;

/**
 * The congestion signal of the Tofino design. When a deflected packet for egress port e leaves a DoD
 * queue, egress raises an UPDATE; after the recirculation latency it reaches the ingress pipelines as
 * a NOTIFY for e, which makes them pessimistic about e. In hardware that is a control packet
 * recirculated and multicast; here it is a message with the same latency.
 */
public final class CongestionSignals {
    /** When a deflected packet raises a signal. */
    public enum Trigger {
        /** Every deflected packet dequeued from a DoD queue raises one (as the hardware does). */
        EVERY,
        /** Only while the DoD queue still holds at least {@code signalBacklog} packets behind it. */
        BACKLOG
    }

    /** Which pipelines a NOTIFY reaches. */
    public enum Scope {
        ALL,
        ORIGIN
    }

    /** Told when a NOTIFY has been scheduled, so a virtual-time runtime can wake at its due time. */
    @FunctionalInterface
    public interface Scheduled {
        void notifyDueAt(long time);
    }

    private static final int PIPELINE_BITS = 8;

    private final Trigger trigger;
    private final int signalBacklog;
    private final Scope scope;
    private final long latencyPicos;
    private final IngressPipeline[] pipelines;
    private final Scheduled scheduled;
    private final TimedIntFifo inFlight = new TimedIntFifo(256);
    private final long[] raised;

    public CongestionSignals(
        final Trigger trigger, final int signalBacklog, final Scope scope, final long latencyPicos,
        final IngressPipeline[] pipelines, final Scheduled scheduled) {
        if (signalBacklog < 0) {
            throw new IllegalArgumentException("signal backlog must be 0 or more packets, got " + signalBacklog);
        }
        if (pipelines.length > 1 << PIPELINE_BITS) {
            throw new IllegalArgumentException("at most " + (1 << PIPELINE_BITS) + " pipelines");
        }
        this.trigger = trigger;
        this.signalBacklog = signalBacklog;
        this.scope = scope;
        this.latencyPicos = latencyPicos;
        this.pipelines = pipelines;
        this.scheduled = scheduled;
        this.raised = new long[pipelines.length];
    }

    /**
     * A deflected packet for {@code egressPort} left the DoD queue of {@code originPipeline}, leaving
     * {@code backlogBehind} packets queued behind it.
     */
    public void onDeflectedDequeue(final int egressPort, final int originPipeline, final int backlogBehind, final long now) {
        if (trigger == Trigger.BACKLOG && backlogBehind < signalBacklog) {
            return;
        }
        raised[originPipeline]++;
        final long due = now + latencyPicos;
        inFlight.add(due, (egressPort << PIPELINE_BITS) | originPipeline);
        scheduled.notifyDueAt(due);
    }

    /** Delivers every NOTIFY due by {@code now}; returns how many. */
    public int deliverDue(final long now) {
        int delivered = 0;
        while (!inFlight.isEmpty() && inFlight.headTime() <= now) {
            final int signal = inFlight.removeHead();
            final int egressPort = signal >>> PIPELINE_BITS;
            if (scope == Scope.ALL) {
                for (final IngressPipeline pipeline : pipelines) {
                    pipeline.onCongestionNotify(egressPort, now);
                }
            } else {
                pipelines[signal & ((1 << PIPELINE_BITS) - 1)].onCongestionNotify(egressPort, now);
            }
            delivered++;
        }
        return delivered;
    }

    /** Signals raised by deflected packets of {@code pipeline}. */
    public long raised(final int pipeline) {
        return raised[pipeline];
    }

    public void reset() {
        inFlight.clear();
        java.util.Arrays.fill(raised, 0);
    }
}
