package io.trimswitch.network.htsim;

import io.trimswitch.network.topology.FatTree;
import io.trimswitch.config.ConfigException;

/** The fat tree a {@code .topo} file describes, with htsim's checks: its sizes as {@link FatTree.Shape}. */
final class HtsimShape {
    private HtsimShape() {
    }

    /** The sizes htsim derives from {@code t}; a size it refuses is a one-line error at the line {@code lines} gives. */
    static FatTree.Shape of(final HtsimTopology t, final HtsimTopology.KeyLines lines) {
        final String source = t.source();
        final HtsimTopology.Tier[] tier = t.tier();
        for (int n = 0; n < t.tiers(); n++) {
            if (tier[n].radixDown() % tier[n].bundle() != 0) {
                throw refuse(source, lines.at(n, "radix_down"), "Radix_Down " + tier[n].radixDown() + " of tier " + n + " is no multiple of its Bundle "
                    + tier[n].bundle());
            }
            if (n < t.tiers() - 1 && tier[n].radixUp() % tier[n + 1].bundle() != 0) {
                throw refuse(source, lines.at(n, "radix_up"), "Radix_Up " + tier[n].radixUp() + " of tier " + n + " is no multiple of tier " + (n + 1)
                    + "'s Bundle " + tier[n + 1].bundle());
            }
        }
        if (t.nodes() % t.podSize() != 0) {
            throw refuse(source, lines.at(-1, "podsize"), "Podsize " + t.podSize() + " does not divide Nodes " + t.nodes());
        }
        if (t.tiers() == 2 && t.podSize() != t.nodes()) {
            throw refuse(source, lines.at(-1, "podsize"), "Podsize " + t.podSize() + ": a two-tier tree is one pod, Podsize must be Nodes " + t.nodes());
        }
        final int pods = t.nodes() / t.podSize();
        final HtsimTopology.Tier tor = tier[0];
        if (t.podSize() % tor.radixDown() != 0) {
            throw refuse(source, lines.at(0, "radix_down"), "Radix_Down " + tor.radixDown() + " of tier 0 does not divide Podsize " + t.podSize());
        }
        final int torsPerPod = t.podSize() / tor.radixDown();
        final double torUplinksExact = t.nodes() * tor.speedGbps() / (tier[1].speedGbps() * tor.oversubscribed());
        final long torUplinks = Math.round(torUplinksExact);
        if (Math.abs(torUplinksExact - torUplinks) > 1e-9 || torUplinks < 1) {
            throw refuse(source, lines.at(0, "oversubscribed"), "Nodes × tier 0's speed / (tier 1's speed × Oversubscribed "
                + tor.oversubscribed() + ") is no whole number of uplinks");
        }
        if (tor.radixDown() / tor.radixUp() != tor.oversubscribed()) {
            throw refuse(source, lines.at(0, "radix_up"), "Radix_Down " + tor.radixDown() + " / Radix_Up " + tor.radixUp()
                + " of tier 0 does not match Oversubscribed " + tor.oversubscribed());
        }
        if (torUplinks % ((long) pods * tier[1].radixDown()) != 0) {
            throw refuse(source, lines.at(1, "radix_down"), "Radix_Down " + tier[1].radixDown() + " of tier 1 does not divide the " + torUplinks
                + " rack uplinks of " + pods + (pods == 1 ? " pod" : " pods") + " evenly");
        }
        final int aggPerPod = (int) (torUplinks / ((long) pods * tier[1].radixDown()));
        if ((long) aggPerPod * tier[1].bundle() != tor.radixUp()) {
            throw refuse(source, lines.at(0, "radix_up"), "Radix_Up " + tor.radixUp() + " of tier 0 does not match the " + aggPerPod
                + " aggregation switches per pod × tier 1's Bundle " + tier[1].bundle());
        }
        int cores = 0;
        int upLinks = 0;
        if (t.tiers() == 3) {
            final double aggUplinksExact = torUplinks * tier[1].speedGbps() / (tier[2].speedGbps() * tier[1].oversubscribed());
            final long aggUplinks = Math.round(aggUplinksExact);
            if (Math.abs(aggUplinksExact - aggUplinks) > 1e-9 || aggUplinks < 1) {
                throw refuse(source, lines.at(1, "oversubscribed"), "rack uplinks × tier 1's speed / (tier 2's speed × Oversubscribed "
                    + tier[1].oversubscribed() + ") is no whole number of uplinks");
            }
            if (aggUplinks % tier[2].radixDown() != 0) {
                throw refuse(source, lines.at(2, "radix_down"), "Radix_Down " + tier[2].radixDown() + " of tier 2 does not divide the " + aggUplinks
                    + " aggregation uplinks");
            }
            cores = (int) (aggUplinks / tier[2].radixDown());
            if (cores % aggPerPod != 0) {
                throw refuse(source, lines.at(2, "radix_down"), "the tree has " + cores + " core switches, no multiple of its " + aggPerPod
                    + " aggregation switches per pod");
            }
            if ((long) cores * tier[2].bundle() / aggPerPod != tier[1].radixUp()) {
                throw refuse(source, lines.at(1, "radix_up"), "Radix_Up " + tier[1].radixUp() + " of tier 1 does not match " + cores
                    + " core switches over " + aggPerPod + " aggregation switches per pod × tier 2's Bundle " + tier[2].bundle());
            }
            upLinks = tier[1].radixUp() / tier[2].bundle();
        }
        final int torsInPod = t.tiers() == 3 ? torsPerPod : t.nodes() / tor.radixDown();
        final long switches = (long) t.nodes() / tor.radixDown() + (long) aggPerPod * pods + cores;
        if (switches > 65_536) {
            throw new ConfigException(source + ": the tree has " + switches + " switches; at most 65536");
        }
        return new FatTree.Shape(t.tiers(), t.nodes(), tor.radixDown(), torsInPod, t.tiers() == 3 ? pods : 1, aggPerPod * (t.tiers() == 3 ? 1 : pods),
            aggPerPod * pods, cores, tier[1].bundle(), t.tiers() == 3 ? tier[2].bundle() : 1, upLinks);
    }

    private static ConfigException refuse(final String source, final int line, final String message) {
        return new ConfigException(source + (line > 0 ? " line " + line : "") + ": " + message);
    }
}
