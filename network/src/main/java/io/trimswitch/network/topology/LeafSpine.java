package io.trimswitch.network.topology;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.simulator.Wiring;

import java.util.ArrayList;
import java.util.List;

/**
 * A two-tier leaf-spine network: {@code leaves} leaves of {@code hostsPerLeaf} hosts each, every leaf cabled to every
 * spine. Switches 0..leaves-1 are the leaves, then the spines; host h is host link h. With no spines it is one switch
 * with every host on it.
 */
public final class LeafSpine {
    private final NetworkSettings.Topology topology;
    private final NetworkSettings.Routing routing;
    /** Per (source leaf, destination leaf): the spines whose links to both are up, in spine order. */
    private final int[][][] usable;
    /** Per leaf and spine: whether routing knows the link between them to be up. */
    private final boolean[][] up;
    private final Wiring wiring;

    public LeafSpine(final NetworkSettings settings) {
        this.topology = settings.topology();
        this.routing = settings.routing();
        final int leaves = topology.leaves();
        final int spines = topology.spines();
        this.up = new boolean[leaves][spines];
        this.usable = new int[leaves][leaves][];
        reset();
        final int[] ports = new int[leaves + spines];
        for (int sw = 0; sw < ports.length; sw++) {
            ports[sw] = sw < leaves ? settings.leaf().egressPorts() : settings.spine().egressPorts();
        }
        this.wiring = new Wiring(ports, hosts());
        for (int host = 0; host < hosts(); host++) {
            wiring.plugHost(host, leafOf(host), portOfHost(host));
        }
        for (int leaf = 0; leaf < leaves; leaf++) {
            for (int s = 0; s < spines; s++) {
                if (linkUp(leaf, s)) {
                    wiring.cable(leaf, uplinkPort(s), leaves + s, leaf);
                }
            }
        }
    }

    public Wiring wiring() {
        return wiring;
    }

    /** Routing as at the start of a run: only the links down from the start are left out. */
    public void reset() {
        for (int leaf = 0; leaf < up.length; leaf++) {
            for (int s = 0; s < topology.spines(); s++) {
                up[leaf][s] = !topology.failed(leaf, s);
            }
        }
        recomputePaths();
    }

    /** Routing has learnt that the link between {@code leaf} and {@code spine} is down: no path uses it from now on. */
    public void fail(final int leaf, final int spine) {
        up[leaf][spine] = false;
        recomputePaths();
    }

    private void recomputePaths() {
        for (int a = 0; a < usable.length; a++) {
            for (int b = 0; b < usable.length; b++) {
                final List<Integer> both = new ArrayList<>();
                for (int s = 0; s < topology.spines(); s++) {
                    if (a != b && up[a][s] && up[b][s]) {
                        both.add(s);
                    }
                }
                usable[a][b] = both.stream().mapToInt(Integer::intValue).toArray();
            }
        }
    }

    /** The forwarding stage of switch {@code sw}. */
    public ForwardingStage forwarding(final int sw) {
        return sw < topology.leaves() ? LeafSpineForwarding.leaf(this, sw) : LeafSpineForwarding.spine(this, sw - topology.leaves());
    }

    public String name(final int sw) {
        return sw < topology.leaves() ? "leaf" + sw : "spine" + (sw - topology.leaves());
    }

    public String tier(final int sw) {
        return sw < topology.leaves() ? "leaf" : "spine";
    }

    /** What port {@code port} of switch {@code sw} leads to: "host 5", "spine 1", "leaf 3", or null. */
    public String attached(final int sw, final int port) {
        final int at = wiring.port(sw, port);
        if (wiring.hostAt(at) >= 0) {
            return "host" + wiring.hostAt(at);
        }
        final int peer = wiring.peerOf(at);
        if (peer >= 0) {
            return name(wiring.switchOf(peer));
        }
        if (sw < topology.leaves() && port >= topology.hostsPerLeaf() && port < topology.hostsPerLeaf() + topology.spines()) {
            return "spine" + (port - topology.hostsPerLeaf()) + " (down)";
        }
        if (sw >= topology.leaves() && port < topology.leaves()) {
            return "leaf" + port + " (down)";
        }
        return null;
    }

    NetworkSettings.Routing routing() {
        return routing;
    }

    int hosts() {
        return topology.hosts();
    }

    int spines() {
        return topology.spines();
    }

    int leafOf(final int host) {
        return host / topology.hostsPerLeaf();
    }

    int portOfHost(final int host) {
        return host % topology.hostsPerLeaf();
    }

    /** Network port numbers of the two ends of the cable between {@code leaf} and {@code spine}: the leaf's, then the spine's. */
    public int[] cableEnds(final int leaf, final int spine) {
        return new int[] {wiring.port(leaf, uplinkPort(spine)), wiring.port(topology.leaves() + spine, leaf)};
    }

    /** A leaf's port to spine {@code spine}. */
    int uplinkPort(final int spine) {
        return topology.hostsPerLeaf() + spine;
    }

    /** Whether routing knows the link between {@code leaf} and {@code spine} to be up. */
    boolean linkUp(final int leaf, final int spine) {
        return up[leaf][spine];
    }

    /** The spines a packet from leaf {@code from} to leaf {@code to} may cross; empty within a rack. */
    int[] usableSpines(final int from, final int to) {
        return usable[from][to];
    }
}
