package io.trimswitch.network.run;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimFlows;
import io.trimswitch.network.topology.FatTree;
import io.trimswitch.network.topology.FatTreeForwarding;
import io.trimswitch.network.topology.LeafSpine;
import io.trimswitch.network.topology.PathSpraying;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.LinkFailures;
import io.trimswitch.simulator.PathChoice;
import io.trimswitch.simulator.SwitchNode;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.TransportRun;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.simulator.Transports;
import io.trimswitch.simulator.VirtualTimeEngine;
import io.trimswitch.simulator.Wiring;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.run.SwitchRun;
import io.trimswitch.switching.run.SwitchRunView;
import io.trimswitch.switching.source.TrafficSource;

import java.util.List;

/**
 * A network of switches (a leaf-spine, or an htsim experiment's fat tree) and its hosts, of NDP or of a plug-in transport, run by the {@link VirtualTimeEngine}: each switch's components
 * wired for its mechanism as a lone switch's are, cables between their ports, links that may fail during the run.
 * Same settings, same result, bit for bit; a network can be {@link #run()} many times.
 */
public final class NetworkRun {
    /** What a buffer keeps of a frame of the model's hosts: the headers, in one cache line. */
    private static final int HEADER_BYTES = 64;

    private final VirtualTimeEngine engine;
    /** The leaf-spine layout, or null for a single switch. */
    private final LeafSpine leafSpine;
    /** The fat tree of an htsim experiment, or null. */
    private final FatTree fatTree;
    /** The flows and triggers of an htsim experiment, or null. */
    private HtsimFlows htsimFlows;
    /** The hosts' transport: "ndp", or a plug-in's name. */
    private String transport = "ndp";
    /** A plug-in transport's part of the run, or null: NDP hosts. */
    private TransportRun transportRun;

    private NetworkRun(final VirtualTimeEngine engine, final LeafSpine leafSpine) {
        this(engine, leafSpine, null);
    }

    private NetworkRun(final VirtualTimeEngine engine, final LeafSpine leafSpine, final FatTree fatTree) {
        this.engine = engine;
        this.leafSpine = leafSpine;
        this.fatTree = fatTree;
    }

    /** The fat tree and the flows of an experiment written for htsim. */
    public static NetworkRun of(final HtsimExperiment experiment) {
        final Transport ndp = Transports.named("ndp");
        return of(experiment, ndp, ndp.settings(java.util.Map.of()));
    }

    /**
     * The fat tree and the flows of an experiment written for htsim, run by the hosts of {@code transport} with its
     * settings {@code own}; the switches are set as its hosts need them.
     */
    public static NetworkRun of(final HtsimExperiment experiment, final Transport transport, final TransportSettings own) {
        final FatTree.Shape shape = experiment.shape();
        final int switches = shape.switches();
        final Settings[] each = new Settings[switches];
        final java.util.Map<Settings, Settings> adapted = new java.util.IdentityHashMap<>();
        for (int sw = 0; sw < switches; sw++) {
            final int hostPorts = shape.tier(sw) == 0 ? shape.hostsPerTor() : 0;
            each[sw] = adapted.computeIfAbsent(experiment.settings(sw), s -> transport.switchSettings(s, hostPorts, own));
        }
        final TreeSwitches built = TreeSwitches.of(experiment, each);
        final FatTree tree = built.tree();
        final HtsimFlows flows = HtsimFlows.of(experiment, own.connectionReuse());
        final TransportRun hostsRun = transport.fabric(new HtsimFabric(experiment, tree, flows, each[0], built.spray()), own);
        final io.trimswitch.simulator.TransportHosts hosts = hostsRun.hosts();
        flows.attach(hosts);
        // The hosts keep a flow's packets in flight to about its window (and as many control packets back): a tree's queues
        // could hold far more than ever travels, and the pool's rows are mapped for all it may hold.
        final long inFlight = 16L * flows.count() * (hostsRun.windowPackets() + 16) + (1 << 16);
        final NetworkRun run = new NetworkRun(new VirtualTimeEngine(built.parts(), tree.wiring(), hosts, hosts, pool(each, hosts, inFlight),
            Picos.fromMicros(experiment.getMaxDurationUs()), LinkFailures.NONE), null, tree);
        hostsRun.switchesBuilt(run.engine);
        run.htsimFlows = flows;
        run.transport = transport.name();
        run.transportRun = hostsRun;
        return run;
    }

    /**
     * The switches of {@code experiment}'s fat tree, switch {@code sw} of settings {@code each[sw]}: the tree wired for their
     * ports, and each switch's name, tier and forwarding, spraying packets over the paths where the experiment sprays.
     */
    private record TreeSwitches(FatTree tree, VirtualTimeEngine.Switches parts, boolean spray) {
        static TreeSwitches of(final HtsimExperiment experiment, final Settings[] each) {
            final int[] ports = new int[each.length];
            for (int sw = 0; sw < each.length; sw++) {
                ports[sw] = each[sw].egressPorts();
            }
            final FatTree tree = new FatTree(experiment.shape(), experiment.cut(), ports);
            final boolean spray = experiment.routing() == NetworkSettings.Routing.SPRAY;
            final String[] names = new String[each.length];
            final String[] tiers = new String[each.length];
            final ForwardingStage[] forwarding = new ForwardingStage[each.length];
            for (int sw = 0; sw < each.length; sw++) {
                names[sw] = tree.name(sw);
                tiers[sw] = tree.tierName(sw);
                forwarding[sw] = new FatTreeForwarding(tree, sw, spray);
            }
            return new TreeSwitches(tree, new VirtualTimeEngine.Switches(each, names, tiers, forwarding), spray);
        }
    }

    /**
     * The data queues {@code transport}'s hosts want on {@code experiment}'s tree when none is given (htsim_uec's: one
     * bandwidth-delay product), in whole packets or in MTUs of payload; null: the switches' own default.
     */
    public static Integer defaultQueuePackets(final HtsimExperiment experiment, final Transport transport, final boolean wholePackets) {
        return transport.defaultQueuePackets(HtsimFabric.numbers(experiment), wholePackets);
    }

    /** The leaf-spine network of {@code settings} with its workload. */
    public static NetworkRun of(final NetworkSettings settings) {
        final LeafSpine network = new LeafSpine(settings);
        final NetworkWorkload workload = NetworkWorkload.of(settings);
        final int switches = settings.topology().leaves() + settings.topology().spines();
        final Settings[] each = new Settings[switches];
        final String[] names = new String[switches];
        final String[] tiers = new String[switches];
        final ForwardingStage[] forwarding = new ForwardingStage[switches];
        for (int sw = 0; sw < switches; sw++) {
            each[sw] = sw < settings.topology().leaves() ? settings.leaf() : settings.spine();
            names[sw] = network.name(sw);
            tiers[sw] = network.tier(sw);
            forwarding[sw] = network.forwarding(sw);
        }
        final boolean spray = settings.routing() == NetworkSettings.Routing.SPRAY && settings.topology().spines() > 0;
        final PathSpraying spraying = spray ? new PathSpraying(network, workload.sender, workload.receiver, settings.workload().seed()) : null;
        final Transport ndp = Transports.named("ndp");
        final io.trimswitch.simulator.TransportHosts hosts = ndp.fabric(new LeafSpineFabric(settings, workload, spray ? spraying : PathChoice.NONE),
            ndp.settings(java.util.Map.of())).hosts();
        final LinkFailures failures = new FailingLinks(network, spraying, settings.topology().failedLinks(),
            Picos.fromMicros(settings.topology().failureDetectionUs()));
        final VirtualTimeEngine.Switches parts = new VirtualTimeEngine.Switches(each, names, tiers, forwarding);
        return new NetworkRun(new VirtualTimeEngine(parts, network.wiring(), hosts, hosts, pool(each, hosts), Picos.fromMicros(
            settings.transport().maxDurationUs()), failures), network);
    }

    /**
     * One switch with the NDP hosts of {@code settings} on its ports, wired as a lone switch is: host link p on port p
     * (and, with separate hosts, receiving link {@code ports + p} on egress port {@code ports + p}); NDP is found by
     * its name, as every transport is.
     */
    public static NetworkRun singleSwitch(final Settings settings) {
        final Transport ndp = Transports.named("ndp");
        final io.trimswitch.simulator.TransportHosts hosts = ndp.loneSwitch(settings, ndp.settings(java.util.Map.of())).hosts();
        final VirtualTimeEngine.Switches parts = VirtualTimeEngine.Switches.lone(settings);
        return new NetworkRun(new VirtualTimeEngine(parts, Wiring.loneSwitch(settings.egressPorts()), hosts, hosts, pool(parts.settings(), hosts),
            Picos.fromMicros(settings.transport().maxDurationUs()), LinkFailures.NONE), null);
    }

    /** Buffers for every packet the switches' queues can hold, and for those on each link's propagation delay. */
    private static PacketPool pool(final Settings[] switches, final EndHosts hosts) {
        return pool(switches, hosts, Integer.MAX_VALUE - 8);
    }

    private static PacketPool pool(final Settings[] switches, final EndHosts hosts, final long most) {
        final long latency = hosts.propagationPicos();
        long bound = 0;
        for (final Settings each : switches) {
            bound += AssembledSwitch.capacityBound(each);
            for (int port = 0; port < each.egressPorts(); port++) {
                bound += latency / new LinkRate(each.portRateBps(port)).serialisation(64) + 2;
            }
        }
        return new PacketPool((int) Math.min(bound, most), Math.max(switches[0].workload().packetBytes(), 64), HEADER_BYTES);
    }

    /** The links of {@code network} that fail during a run; routing around one also changes the senders' spraying. */
    private record FailingLinks(LeafSpine network, PathSpraying spraying, List<NetworkSettings.Link> links, long detectionPicos)
        implements LinkFailures {
        @Override
        public int count() {
            return links.size();
        }

        @Override
        public long downAtPicos(final int failure) {
            final double atUs = links.get(failure).atUs();
            return atUs > 0 ? Picos.fromMicros(atUs) : -1;
        }

        @Override
        public int[] ends(final int failure) {
            return network.cableEnds(links.get(failure).leaf(), links.get(failure).spine());
        }

        @Override
        public void routeAround(final int failure) {
            network.fail(links.get(failure).leaf(), links.get(failure).spine());
            if (spraying != null) {
                spraying.pathsChanged();
            }
        }

        @Override
        public void reset() {
            network.reset();
        }
    }

    /** Runs the workload from time zero until every flow completes or the run's time is up. */
    public VirtualTimeEngine.Outcome run() {
        if (htsimFlows != null) {
            htsimFlows.reset();
        }
        return engine.run();
    }

    /** Packets the hosts sent into the network in the last run: data, and NDP's ACKs, NACKs and PULLs. */
    public long packetsSent() {
        return engine.recorder().sentTotal() + engine.recorder().controlSentCount();
    }

    /** Packets the switches received in the last run, over all their ports: a packet crossing three switches counts three times. */
    public long switchHops() {
        long hops = 0;
        for (int sw = 0; sw < engine.switches(); sw++) {
            final AssembledSwitch assembly = engine.node(sw).assembly();
            for (int port = 0; port < assembly.ports(); port++) {
                hops += assembly.port(port).counters().rxPackets();
            }
        }
        return hops;
    }

    /** Hosts on the network's links. */
    public int hostCount() {
        return engine.wiring().hostLinks();
    }

    // ---- what reports read --------------------------------------------------------------------------------------

    SwitchNode node(final int sw) {
        return engine.node(sw);
    }

    int switches() {
        return engine.switches();
    }

    RunRecorder recorder() {
        return engine.recorder();
    }

    FlowLifetimes lifetimes() {
        return engine.hosts();
    }

    TrafficSource hosts() {
        return engine.hosts();
    }

    long durationPicos() {
        return engine.durationPicos();
    }

    long lastPacketPicos() {
        return engine.lastPacketPicos();
    }

    /** The flows of an htsim experiment's matrix (their ids, bytes and messages), or null when the flows are not one's. */
    HtsimFlows htsimFlows() {
        return htsimFlows;
    }

    /** Switches of each tier, in order: "leaf", "spine", or a fat tree's "tor", "agg", "core". */
    String[] tierNames() {
        return fatTree == null ? new String[] {"leaf", "spine"} : java.util.Arrays.copyOf(FatTree.TIER_NAMES, fatTree.shape().tiers());
    }

    /** The hosts' transport: "ndp", or a plug-in's name. */
    String transport() {
        return transport;
    }

    /** The transport's section of the report after the last run, or null: none (NDP hosts). */
    Object transportReport() {
        return transportRun == null ? null : transportRun.report(engine);
    }

    long eventsHandled() {
        return engine.eventsHandled();
    }

    /** A one-switch network's run as a lone switch's: what the report builder reads, to set it beside a lone switch's. */
    public RunOutcome asSwitchRun(final VirtualTimeEngine.Outcome outcome) {
        return new RunOutcome(switchView(0), outcome.inFlightAtEnd(), outcome.leakedBuffers());
    }

    /** What port {@code port} of switch {@code sw} is cabled to ("host5", "spine1"), or null. */
    String attached(final int sw, final int port) {
        return fatTree != null ? fatTree.attached(sw, port) : leafSpine == null ? null : leafSpine.attached(sw, port);
    }

    /** Switch {@code sw} of this run as a lone switch's run: its settings and components, the network's flows. */
    SwitchRun switchView(final int sw) {
        final SwitchNode node = engine.node(sw);
        return new SwitchRunView(node.settings(), engine.hosts(), node.assembly(), engine.recorder(), engine.durationPicos(), engine.lastPacketPicos(),
            engine.eventsHandled(), engine.hosts(), transport());
    }
}
