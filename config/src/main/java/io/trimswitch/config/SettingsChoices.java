package io.trimswitch.config;


/**
 * The settings' choices, each an enum spelled as the YAML file does ({@link Choice}); reached as {@code Settings.Clock} and
 * the like, since {@link Settings} implements this.
 */
public interface SettingsChoices {
    /** Which clock drives the components. */
    public enum Clock implements Choice {
        VIRTUAL, REAL
    }

    /** Ingress meters: three (one per trim state) or two (optimistic and pessimistic, the production-router profile). */
    public enum MeterProfile implements Choice {
        THREE, TWO
    }

    /** Which pipelines a NOTIFY reaches: all of them, or only the one whose packet was deflected. */
    public enum NotifyScope implements Choice {
        ALL, ORIGIN
    }

    /** Which deflected packets raise a congestion signal: every one, or only those meeting a DoD backlog. */
    public enum SignalTrigger implements Choice {
        EVERY, BACKLOG
    }

    /** The trim control loop of {@code tofino}: the paper's, or the one that reads how late each NOTIFY is. */
    public enum Loop implements Choice {
        PAPER, BACKLOG
    }

    /**
     * Open-loop senders that blast and stop, NDP hosts that retransmit until every flow completes, or Ultra Ethernet hosts
     * (NSCC, SACKs and NACKs, in virtual time) that do the same.
     */
    public enum TransportKind implements Choice {
        OPEN_LOOP, NDP, UET
    }

    /** Whether a port's sending and receiving hosts are two machines or one. */
    public enum HostLayout implements Choice {
        SEPARATE, SHARED
    }

    /** How the real-time runtime puts its agents on threads. */
    /** How many pipeline shards, each on a thread of its own, run a real-time scenario: one, two, or one per pipeline. */
    public enum Placement implements Choice {
        SPLIT, PER_PIPELINE, SINGLE
    }

    /** What a thread does after a duty cycle with nothing to do. */
    public enum Idle implements Choice {
        BUSY_SPIN, YIELD, BACKOFF, SLEEP,
        /** The live switch: sleep in poll (epoll_wait) until a port has a frame; an idle core for some latency. */
        POLL;

        /** {@code block} is what poll was called before. */
        @Override
        public boolean named(final String text) {
            return Choice.super.named(text) || this == POLL && "block".equals(text);
        }
    }

    /** What happens to a packet that does not fit its queue (SAI's packet_discard_action). */
    public enum Discard implements Choice {
        TRIM, DROP
    }

    /** How the scheduler serves a queue: before every dwrr queue, or by deficit weighted round robin. */
    public enum Scheduling implements Choice {
        STRICT, DWRR
    }

    /** How {@code run} forwards: a learning bridge, IPv4 routes, or 10.0.p.0/24 to port p. */
    public enum ForwardingMode implements Choice {
        L2, ROUTED, SUBNET
    }
}
