package io.trimswitch.network.run;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.PathChoice;

/**
 * A leaf-spine network as a transport's hosts see it: a link per host into its leaf (at the leaves' settings), the
 * workload's flows and the paths a sprayed packet takes. Its failed links are the network's, timed by the network;
 * it has no fat tree's numbers, so a transport that derives its own from them runs on an htsim experiment instead.
 */
final class LeafSpineFabric implements Fabric {
    private final NetworkSettings settings;
    private final NetworkWorkload workload;
    private final PathChoice spraying;

    LeafSpineFabric(final NetworkSettings settings, final NetworkWorkload workload, final PathChoice spraying) {
        this.settings = settings;
        this.workload = workload;
        this.spraying = spraying;
    }

    @Override
    public Settings hostSettings() {
        return settings.leaf();
    }

    @Override
    public int hosts() {
        return settings.topology().hosts();
    }

    @Override
    public Flows flows() {
        return new Flows(workload.sender, workload.receiver, workload.start, workload.size, null, null, workload.description);
    }

    @Override
    public long seed() {
        return settings.workload().seed();
    }

    @Override
    public Numbers numbers() {
        throw new ConfigException("a leaf-spine network has no fat tree's numbers: run this transport on an htsim experiment");
    }

    @Override
    public PathChoice spraying() {
        return spraying;
    }

    @Override
    public EntropyPaths entropyPaths() {
        return EntropyPaths.NONE;
    }

    @Override
    public boolean hostFacing(final int sw, final int port) {
        return sw < settings.topology().leaves() && port < settings.topology().hostsPerLeaf();
    }

    @Override
    public double rateLeft(final int sw, final int port) {
        return 1;
    }

    @Override
    public boolean htsimHosts() {
        return false;
    }
}
