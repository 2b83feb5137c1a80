package io.trimswitch.network.run;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimFlows;
import io.trimswitch.network.topology.EntropyHashPaths;
import io.trimswitch.network.topology.FatTree;
import io.trimswitch.network.topology.FatTreeSpraying;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.PathChoice;

/**
 * An htsim experiment's fat tree as a transport's hosts see it: its host links (with the settings of the switches
 * they plug into), the matrix's flows, the paths a sprayed packet or an entropy takes, and the tree's numbers.
 */
final class HtsimFabric implements Fabric {
    private final HtsimExperiment experiment;
    private final FatTree tree;
    private final HtsimFlows flows;
    private final Settings hostSettings;
    private final boolean spray;

    HtsimFabric(final HtsimExperiment experiment, final FatTree tree, final HtsimFlows flows, final Settings hostSettings, final boolean spray) {
        this.experiment = experiment;
        this.tree = tree;
        this.flows = flows;
        this.hostSettings = hostSettings;
        this.spray = spray;
    }

    /** The numbers of {@code experiment}'s tree, before it is built. */
    static Numbers numbers(final HtsimExperiment experiment) {
        return new Numbers(experiment.shape().tiers(), experiment.hostRateGbps(), experiment.linkLatencyNs(), experiment.frameBytes(),
            experiment.getMtu(), experiment.settings(0).fabric().dataQueuePackets(), oversubscription(experiment.shape()));
    }

    /** The tree's oversubscription, as uet-htsim counts it: a rack's hosts over its uplinks, times a pod's racks' links over its uplinks. */
    private static int oversubscription(final FatTree.Shape s) {
        int ratio = s.hostsPerTor() / Math.max(1, s.aggPerPod() * s.torBundle());
        if (s.tiers() > 2) {
            ratio *= s.torsPerPod() * s.torBundle() / Math.max(1, s.upLinksPerAgg() * s.coreBundle());
        }
        return Math.max(1, ratio);
    }

    @Override
    public Settings hostSettings() {
        return hostSettings;
    }

    @Override
    public int hosts() {
        return experiment.shape().nodes();
    }

    @Override
    public Flows flows() {
        return flows.fabricFlows();
    }

    @Override
    public long seed() {
        return experiment.getSeed();
    }

    @Override
    public Numbers numbers() {
        return numbers(experiment);
    }

    @Override
    public PathChoice spraying() {
        return spray ? new FatTreeSpraying(tree, flows().sender(), flows().receiver(), experiment.getPaths(), experiment.getSeed()) : PathChoice.NONE;
    }

    @Override
    public EntropyPaths entropyPaths() {
        return spray ? new EntropyHashPaths(tree, flows().sender(), flows().receiver(), experiment.getSeed()) : EntropyPaths.NONE;
    }

    @Override
    public boolean hostFacing(final int sw, final int port) {
        return experiment.shape().tier(sw) == 0 && port < experiment.shape().hostsPerTor();
    }

    @Override
    public double rateLeft(final int sw, final int port) {
        return port < experiment.shape().ports(sw) ? experiment.rateLeft(sw, port) : 1;
    }

    @Override
    public boolean htsimHosts() {
        return true;
    }
}
