package io.trimswitch.network.topology;

import io.trimswitch.simulator.Wiring;

/**
 * A two- or three-tier fat tree laid out as htsim lays it out. Host h hangs off port h mod hostsPerTor of top-of-rack
 * switch h / hostsPerTor; a pod's racks are cabled to every aggregation switch of the pod (with two tiers, the whole
 * tree is one pod), each pair by a bundle of links; the aggregation switch at position q of its pod is cabled to the
 * core switches q, q + aggPerPod, q + 2 aggPerPod, ... Switches are numbered racks first, then aggregation, then core.
 *
 * <p>Ports: a rack's hosts first, then its uplinks, aggregation switch by switch, bundle link by link. An aggregation
 * switch's downlinks rack by rack, then its uplinks core by core. A core's downlinks pod by pod.
 *
 * <p>Paths between two hosts are numbered as htsim enumerates them: between racks of one pod (aggregation switch, link
 * up, link down); between pods (aggregation switch, core, link up to the aggregation switch, link down from it, link
 * up to the core, link down from it), the last varying fastest.
 */
public final class FatTree {
    /** The sizes of the tree, as htsim derives them from a {@code .topo} file, which the htsim side checks. */
    public record Shape(int tiers, int nodes, int hostsPerTor, int torsPerPod, int pods, int aggPerPod, int aggs, int cores, int torBundle,
        int coreBundle, int upLinksPerAgg) {

        public int tors() {
            return nodes / hostsPerTor;
        }

        public int switches() {
            return tors() + aggs + cores;
        }

        /** The ports switch {@code sw} has cables on: hosts and uplinks, downlinks and uplinks, or downlinks. */
        public int ports(final int sw) {
            if (sw < tors()) {
                return hostsPerTor + aggPerPod * torBundle;
            }
            if (sw < tors() + aggs) {
                return torsPerPod * torBundle + upLinksPerAgg * coreBundle;
            }
            return pods * coreBundle;
        }

        /** 0: a rack's switch, 1: aggregation, 2: core. */
        public int tier(final int sw) {
            return sw < tors() ? 0 : sw < tors() + aggs ? 1 : 2;
        }
    }

    private final Shape shape;
    /** Per aggregation switch and uplink port (core link × bundle): the link is cut, as a matrix's {@code failure} line asks. */
    private final boolean[][] cut;
    private final Wiring wiring;

    /** The tree of {@code shape} without the links {@code cut}; switch s has {@code ports[s]} ports, at least its cabled ones. */
    public FatTree(final Shape shape, final boolean[][] cut, final int[] ports) {
        this.shape = shape;
        this.cut = cut;
        this.wiring = new Wiring(ports, shape.nodes());
        for (int host = 0; host < shape.nodes(); host++) {
            wiring.plugHost(host, torOf(host), host % shape.hostsPerTor());
        }
        final int b1 = shape.torBundle();
        for (int tor = 0; tor < shape.tors(); tor++) {
            final int pod = tor / shape.torsPerPod();
            for (int a = 0; a < shape.aggPerPod(); a++) {
                for (int b = 0; b < b1; b++) {
                    wiring.cable(tor, shape.hostsPerTor() + a * b1 + b, aggSwitch(pod * shape.aggPerPod() + a), (tor % shape.torsPerPod()) * b1 + b);
                }
            }
        }
        final int b2 = shape.coreBundle();
        final int aggsWithUplinks = shape.cores() == 0 ? 0 : shape.aggs();
        for (int agg = 0; agg < aggsWithUplinks; agg++) {
            final int pod = agg / shape.aggPerPod();
            for (int l = 0; l < shape.upLinksPerAgg(); l++) {
                final int core = agg % shape.aggPerPod() + shape.aggPerPod() * l;
                for (int b = 0; b < b2; b++) {
                    if (!cut[agg][l * b2 + b]) {
                        wiring.cable(aggSwitch(agg), aggUplinkPort(l, b), coreSwitch(core), pod * b2 + b);
                    }
                }
            }
        }
    }

    public Shape shape() {
        return shape;
    }

    public Wiring wiring() {
        return wiring;
    }

    public int tier(final int sw) {
        return shape.tier(sw);
    }

    public String tierName(final int sw) {
        return TIER_NAMES[tier(sw)];
    }

    public static final String[] TIER_NAMES = {"tor", "agg", "core"};

    public String name(final int sw) {
        final int tier = tier(sw);
        return TIER_NAMES[tier] + (tier == 0 ? sw : tier == 1 ? sw - shape.tors() : sw - shape.tors() - shape.aggs());
    }

    int aggSwitch(final int agg) {
        return shape.tors() + agg;
    }

    int coreSwitch(final int core) {
        return shape.tors() + shape.aggs() + core;
    }

    int torOf(final int host) {
        return host / shape.hostsPerTor();
    }

    int podOf(final int host) {
        return shape.tiers() == 3 ? host / (shape.torsPerPod() * shape.hostsPerTor()) : 0;
    }

    int aggUplinkPort(final int link, final int bundle) {
        return shape.torsPerPod() * shape.torBundle() + link * shape.coreBundle() + bundle;
    }

    /** What port {@code port} of switch {@code sw} leads to: "host5", "agg1", "core3", or null. */
    public String attached(final int sw, final int port) {
        final int at = wiring.port(sw, port);
        if (wiring.hostAt(at) >= 0) {
            return "host" + wiring.hostAt(at);
        }
        final int peer = wiring.peerOf(at);
        return peer >= 0 ? name(wiring.switchOf(peer)) : null;
    }

    /** Paths between two hosts: 1 within a rack, more between racks and between pods. */
    int paths(final int from, final int to) {
        final Shape s = shape;
        if (torOf(from) == torOf(to)) {
            return 1;
        }
        final int b1 = s.torBundle();
        if (podOf(from) == podOf(to)) {
            return s.aggPerPod() * b1 * b1;
        }
        final int b2 = s.coreBundle();
        return s.aggPerPod() * s.upLinksPerAgg() * b1 * b1 * b2 * b2;
    }

    /** Whether path {@code path} from {@code from} to {@code to} crosses no cut link. */
    boolean usable(final int from, final int to, final int path) {
        if (podOf(from) == podOf(to)) {
            return true;
        }
        final int b2 = shape.coreBundle();
        final int b1 = shape.torBundle();
        final int b2Down = path % b2;
        final int b2Up = path / b2 % b2;
        final int rest = path / (b2 * b2 * b1 * b1);
        final int link = rest % shape.upLinksPerAgg();
        final int upper = rest / shape.upLinksPerAgg();
        return !cut[podOf(from) * shape.aggPerPod() + upper][link * b2 + b2Up] && !cut[podOf(to) * shape.aggPerPod() + upper][link * b2 + b2Down];
    }

    /**
     * The port switch {@code sw} sends a packet from host {@code from} to host {@code to} out of, on path {@code path}
     * (already within {@link #paths}).
     */
    int egressPort(final int sw, final int from, final int to, final int path) {
        final Shape s = shape;
        final int b1 = s.torBundle();
        final int b2 = s.coreBundle();
        final boolean samePod = podOf(from) == podOf(to);
        final int b1Down;
        final int b1Up;
        final int upper;
        final int b2Up;
        final int link;
        if (samePod) {
            b1Down = path % b1;
            b1Up = path / b1 % b1;
            upper = path / (b1 * b1);
            b2Up = 0;
            link = 0;
        } else {
            b2Up = path / b2 % b2;
            int rest = path / (b2 * b2);
            b1Down = rest % b1;
            b1Up = rest / b1 % b1;
            rest /= b1 * b1;
            link = rest % s.upLinksPerAgg();
            upper = rest / s.upLinksPerAgg();
        }
        if (sw < s.tors()) {
            return torOf(to) == sw ? to % s.hostsPerTor() : s.hostsPerTor() + upper * b1 + b1Up;
        }
        if (sw < s.tors() + s.aggs()) {
            final int agg = sw - s.tors();
            if (agg / s.aggPerPod() == podOf(to)) {
                return (torOf(to) % s.torsPerPod()) * b1 + b1Down;
            }
            return aggUplinkPort(link, b2Up);
        }
        return podOf(to) * b2 + path % b2;
    }
}
