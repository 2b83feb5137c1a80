package io.trimswitch.recirc;

/**
 * The congestion signal of the Tofino design. When a deflected packet for egress port e leaves a DoD
 * queue, egress raises an UPDATE; after the recirculation latency it reaches the ingress pipelines as
 * a NOTIFY for e, which makes them pessimistic about e. In hardware that is a control packet
 * recirculated and multicast; here it is a message with the same latency on a {@link NotifyChannel}.
 * Each origin pipeline's count has one writer, its recirculation port.
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

    private final Trigger trigger;
    private final int signalBacklog;
    private final Scope scope;
    private final long latencyPicos;
    private final int pipelines;
    private final NotifyChannel channel;
    private final long[] raised;

    public CongestionSignals(
        final Trigger trigger, final int signalBacklog, final Scope scope, final long latencyPicos,
        final int pipelines, final NotifyChannel channel) {
        if (signalBacklog < 0) {
            throw new IllegalArgumentException("signal backlog must be 0 or more packets, got " + signalBacklog);
        }
        this.trigger = trigger;
        this.signalBacklog = signalBacklog;
        this.scope = scope;
        this.latencyPicos = latencyPicos;
        this.pipelines = pipelines;
        this.channel = channel;
        this.raised = new long[pipelines];
    }

    /**
     * A deflected packet for {@code egressPort} left the DoD queue of {@code originPipeline} {@code agePicos} after it
     * was deflected, leaving {@code backlogBehind} packets queued behind it.
     */
    public void onDeflectedDequeue(
        final int egressPort, final int originPipeline, final int backlogBehind, final long agePicos, final long now) {
        if (trigger == Trigger.BACKLOG && backlogBehind < signalBacklog) {
            return;
        }
        raised[originPipeline]++;
        final long due = now + latencyPicos;
        if (scope == Scope.ALL) {
            for (int pipeline = 0; pipeline < pipelines; pipeline++) {
                channel.send(egressPort, pipeline, due, agePicos);
            }
        } else {
            channel.send(egressPort, originPipeline, due, agePicos);
        }
    }

    /** Signals raised by deflected packets of {@code pipeline}. */
    public long raised(final int pipeline) {
        return raised[pipeline];
    }

    /** Only the counts: NOTIFYs on their way belong to the channel. */
    public void reset() {
        java.util.Arrays.fill(raised, 0);
    }
}
