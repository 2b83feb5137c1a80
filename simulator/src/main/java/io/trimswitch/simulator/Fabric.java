package io.trimswitch.simulator;

import io.trimswitch.config.Settings;

/**
 * A network of switches as a transport sees it: its host links and their settings, its flows, the paths packets may
 * take, and the numbers a transport derives its own from; once built, which ports face hosts and how fast each runs.
 */
public interface Fabric {
    /** Settings of the switches a host is plugged into: the links' rate, delay and frames, the trim marks. */
    Settings hostSettings();

    /** Hosts, one link each. */
    int hosts();

    Flows flows();

    long seed();

    Numbers numbers();

    /** A packet's path chosen per packet, as a sprayer chooses it; {@link PathChoice#NONE} without spraying. */
    PathChoice spraying();

    /** A packet's path from its entropy, as switches hashing it choose it. */
    EntropyPaths entropyPaths();

    /** Whether port {@code port} of switch {@code sw} is cabled to a host. */
    boolean hostFacing(int sw, int port);

    /** The fraction of its rate port {@code port} of switch {@code sw} runs at (a failed link runs slower). */
    double rateLeft(int sw, int port);

    /**
     * Whether the fabric reproduces an htsim experiment, whose hosts a transport then models as htsim's protocol file
     * does (NDP's receivers pull at 99 % of their rate, each flow in turn), rather than as on a lone switch.
     */
    boolean htsimHosts();

    /** The path a packet of {@code flow} on {@code entropy} takes, towards its receiver or back. */
    interface EntropyPaths {
        EntropyPaths NONE = (flow, towardsReceiver, entropy) -> 0;

        int path(int flow, boolean towardsReceiver, int entropy);
    }

    /**
     * A fabric's flows: flow f from host {@code sender[f]} to {@code receiver[f]}, from {@code start[f]} ps (negative:
     * started by a trigger), {@code size[f]} packets; with connection reuse its messages, each one's end in packets
     * and when it is queued (both null without).
     */
    record Flows(int[] sender, int[] receiver, long[] start, int[] size, int[][] messageEnds, long[][] messageStarts, String description) {
    }

    /**
     * What a transport derives its numbers from: the tiers of switches (a longest path crosses twice as many links),
     * the hosts' rate, a link's delay, a data packet's bytes and its payload, the data queues' packets and how many
     * times the tree is oversubscribed.
     */
    record Numbers(int tiers, double hostRateGbps, double linkLatencyNs, int frameBytes, int mtu, int dataQueuePackets, int oversubscription) {
    }
}
