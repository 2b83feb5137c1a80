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
     * The transport by name: open-loop senders that blast and stop (built in), or the hosts of a transport registered under
     * that name, as NDP's ({@code ndp}, which retransmit until every flow completes) and Ultra Ethernet's ({@code uet}) are.
     * Which names are registered is known only where the run is built, which refuses one that is not; here a name is only
     * checked for its spelling.
     */
    final class TransportKind implements Choice {
        // Before the constants, which it checks.
        private static final java.util.regex.Pattern SPELLING = java.util.regex.Pattern.compile("[a-z][a-z0-9-]{0,31}");
        public static final TransportKind OPEN_LOOP = new TransportKind("open-loop");
        public static final TransportKind NDP = new TransportKind("ndp");
        public static final TransportKind UET = new TransportKind("uet");

        private final String label;

        private TransportKind(final String label) {
            if (label == null || !SPELLING.matcher(label).matches()) {
                throw new ConfigException("transport.kind must be a transport's name (lower-case letters, digits and '-', at most 32), got '"
                    + label + "'");
            }
            this.label = label;
        }

        /** The kind {@code text} names, the built-in constants for their names; a refusal is one line. */
        public static TransportKind of(final String text) {
            for (final TransportKind known : values()) {
                if (known.label.equals(text)) {
                    return known;
                }
            }
            return new TransportKind(text);
        }

        /** The kinds every build has: open-loop, and the two transports it ships. */
        public static TransportKind[] values() {
            return new TransportKind[] {OPEN_LOOP, NDP, UET};
        }

        @Override
        public String name() {
            return label;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        @Override
        public String label() {
            return label;
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof TransportKind kind && kind.label.equals(label);
        }

        @Override
        public int hashCode() {
            return label.hashCode();
        }

        @Override
        public String toString() {
            return label;
        }
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
