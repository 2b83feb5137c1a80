package io.trimswitch.uet;

import io.trimswitch.config.Choice;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.TransportSettings;

/**
 * The settings of Ultra Ethernet hosts and of the ECN marking their switches do for them, each checked when made. A null
 * value is derived from the network, as uet-htsim derives it: the target delay from the round trip, the initial window
 * and the ECN thresholds from the bandwidth-delay product, the retransmission timeout from the queue size.
 *
 * @param loadBalancer          how a sender picks each packet's entropy [reps]
 * @param targetDelayUs         NSCC's target queuing delay, µs [null: 0.75 of the network's unloaded round trip]
 * @param initialWindowPackets  a flow's first congestion window, packets [null: 1.5 bandwidth-delay products]
 * @param entropies             entropy values a sender uses (a power of two) [64]
 * @param ackBytes              a receiver acknowledges at least every this many bytes [16384]
 * @param ecnLowPackets         a data queue marks CE with rising probability above this depth, packets [null: 0.2 BDP]
 * @param ecnHighPackets        and marks every packet above this depth [null: 0.8 BDP]
 * @param rtoUs                 the retransmission timeout, µs [null: 15 µs and six queues' drain time]
 * @param connectionReuse       the matrix's lines of one id are messages on one connection, as uet-htsim's -conn_reuse [false]
 * @param cc                    who paces the senders: NSCC's windows, the receivers' credit (RCCC), or both [sender]
 * @param oversubscribedCc      whether the oversubscribed receiver CC paces the receivers' pulls [auto]
 */
public record UetSettings(LoadBalancer loadBalancer, Double targetDelayUs, Integer initialWindowPackets, int entropies, int ackBytes,
    Integer ecnLowPackets, Integer ecnHighPackets, Double rtoUs, boolean connectionReuse, CongestionControl cc, OversubscribedMode oversubscribedCc)
    implements TransportSettings {

    /** Which congestion control paces a sender: its NSCC window, its receiver's credit, or both, as uet-htsim's -sender_cc_only, -receiver_cc_only, -sender_cc -receiver_cc. */
    public enum CongestionControl implements Choice {
        /** NSCC alone: a sender sends while its window holds another packet. */
        SENDER,
        /** RCCC alone: a sender sends while it holds credit, which its receiver's pull pacer grants at the receiver's link rate. */
        RECEIVER,
        /** Both: a sender needs credit and room in its window. */
        BOTH;

        /** Whether NSCC's window limits the sender. */
        public boolean sender() {
            return this != RECEIVER;
        }

        /** Whether the receiver's credit limits the sender. */
        public boolean receiver() {
            return this != SENDER;
        }
    }

    /**
     * When the oversubscribed receiver CC slows the receivers' pulls, as uet-htsim decides it: by itself on an
     * oversubscribed tree unless a sender CC was asked for (-sender_cc, -sender_cc_only), -oversubscribed_cc, -force_disable_oversubscribed_cc.
     */
    public enum OversubscribedMode implements Choice {
        /** On where the receivers pace (--cc receiver or both) on an oversubscribed tree: uet-htsim without a sender CC flag. */
        AUTO,
        /** On whenever the receivers pace; on a tree that is not oversubscribed its floor is 1 % of line rate, as uet-htsim's. */
        ON,
        /** Never. */
        OFF
    }

    /** The load balancers: which entropy (and so which path) each packet of a flow takes. */
    public enum LoadBalancer implements Choice {
        /** Recycled entropies: an entropy whose packet was acknowledged without trouble is used again; frozen after a timeout. */
        REPS,
        /** Each entropy in turn, in an order that changes each round. */
        OBLIVIOUS,
        /** One entropy per flow: one path. */
        SINGLE,
        /** Each entropy in turn, skipping those that recently saw ECN marks, NACKs or a timeout. */
        BITMAP,
        /** uet-htsim's default: entropies acknowledged unmarked are used again, oldest first; bitmap spraying otherwise. */
        MIXED
    }

    public static final UetSettings DEFAULTS = new UetSettings(LoadBalancer.REPS, null, null, 64, 16_384, null, null, null, false, CongestionControl.SENDER,
        OversubscribedMode.AUTO);

    public UetSettings {
        if (loadBalancer == null) {
            throw new ConfigException("--load-balancer must be one of reps, oblivious, single, bitmap, mixed");
        }
        if (targetDelayUs != null) {
            positive("--target-delay-us", targetDelayUs, 10_000);
        }
        if (initialWindowPackets != null && (initialWindowPackets < 1 || initialWindowPackets > 65_535)) {
            throw new ConfigException("--initial-window must be 1..65535 packets (a window below one packet never sends), got " + initialWindowPackets);
        }
        if (entropies < 1 || entropies > 65_536 || Integer.bitCount(entropies) != 1) {
            throw new ConfigException("--paths must be a power of two of 1..65536 entropies for UET hosts, got " + entropies);
        }
        if (ackBytes < 1 || ackBytes > 1 << 24) {
            throw new ConfigException("--ack-bytes must be 1.." + (1 << 24) + ", got " + ackBytes);
        }
        if ((ecnLowPackets == null) != (ecnHighPackets == null)) {
            throw new ConfigException("--ecn takes two depths, LO and HI");
        }
        if (ecnLowPackets != null && (ecnLowPackets < 0 || ecnHighPackets < ecnLowPackets || ecnHighPackets > 65_535)) {
            throw new ConfigException("--ecn must be LO HI with 0 <= LO <= HI <= 65535 packets, got " + ecnLowPackets + " " + ecnHighPackets);
        }
        if (rtoUs != null) {
            positive("--rto-us", rtoUs, 1_000_000);
        }
        if (cc == null) {
            throw new ConfigException("--cc must be one of sender, receiver, both");
        }
        if (oversubscribedCc == null) {
            throw new ConfigException("--oversubscribed-cc must be one of auto, on, off");
        }
        if (oversubscribedCc == OversubscribedMode.ON && !cc.receiver()) {
            throw new ConfigException("--oversubscribed-cc on paces the receivers' pulls: it needs --cc receiver or both");
        }
    }

    private static void positive(final String name, final double value, final double most) {
        if (!(value > 0 && value <= most)) {
            throw new ConfigException(name + " must be above 0 and at most " + (long) most + " µs, got " + value);
        }
    }

    /** The load balancer a command line names, or a one-line refusal naming the option. */
    public static LoadBalancer loadBalancer(final String text) {
        return Settings.choice("--load-balancer", text, LoadBalancer.values());
    }

    /** The congestion control a command line names, or a one-line refusal naming the option. */
    public static CongestionControl cc(final String text) {
        return Settings.choice("--cc", text, CongestionControl.values());
    }

    /** The oversubscribed receiver CC's mode a command line names, or a one-line refusal naming the option. */
    public static OversubscribedMode oversubscribedCc(final String text) {
        return Settings.choice("--oversubscribed-cc", text, OversubscribedMode.values());
    }

    /** Whether the oversubscribed receiver CC runs on a tree of this {@code oversubscription} (1: none). */
    public boolean oversubscribedCcOn(final int oversubscription) {
        return switch (oversubscribedCc) {
            case AUTO -> cc.receiver() && oversubscription > 1;
            case ON -> cc.receiver();
            case OFF -> false;
        };
    }

    public UetSettings withOversubscribedCc(final OversubscribedMode value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc,
            value);
    }

    public UetSettings withCc(final CongestionControl value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, value, oversubscribedCc);
    }

    public UetSettings withLoadBalancer(final LoadBalancer value) {
        return new UetSettings(value, targetDelayUs, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withTargetDelayUs(final Double value) {
        return new UetSettings(loadBalancer, value, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withInitialWindowPackets(final Integer value) {
        return new UetSettings(loadBalancer, targetDelayUs, value, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withEntropies(final int value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, value, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withAckBytes(final int value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, value, ecnLowPackets, ecnHighPackets, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withEcn(final Integer low, final Integer high) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, ackBytes, low, high, rtoUs, connectionReuse, cc, oversubscribedCc);
    }

    public UetSettings withConnectionReuse(final boolean value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, rtoUs, value, cc, oversubscribedCc);
    }

    public UetSettings withRtoUs(final Double value) {
        return new UetSettings(loadBalancer, targetDelayUs, initialWindowPackets, entropies, ackBytes, ecnLowPackets, ecnHighPackets, value, connectionReuse, cc, oversubscribedCc);
    }
}
