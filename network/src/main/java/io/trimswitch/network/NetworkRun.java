package io.trimswitch.network;

import io.trimswitch.switching.source.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.LinkFailures;
import io.trimswitch.simulator.NdpHosts;
import io.trimswitch.simulator.PathChoice;
import io.trimswitch.simulator.SwitchNode;
import io.trimswitch.simulator.UetHosts;
import io.trimswitch.simulator.VirtualTimeEngine;
import io.trimswitch.simulator.Wiring;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.run.SwitchRun;
import io.trimswitch.switching.run.SwitchRunView;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.uet.UetSettings;

import java.util.List;

/**
 * A leaf-spine network of switches and its NDP hosts, run by the {@link VirtualTimeEngine}: each switch's components
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
    /** Ultra Ethernet's numbers for this network, or null: NDP hosts. */
    private UetNetwork uet;

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
        final FatTree.Shape shape = experiment.shape();
        final int switches = shape.switches();
        final Settings[] each = new Settings[switches];
        for (int sw = 0; sw < switches; sw++) {
            each[sw] = experiment.settings(sw);
        }
        final TreeSwitches built = TreeSwitches.of(experiment, each);
        final FatTree tree = built.tree();
        final boolean spray = built.spray();
        final HtsimFlows flows = HtsimFlows.of(experiment);
        final PathChoice paths = spray ? new FatTreeSpraying(tree, flows.sender, flows.receiver, experiment.getPaths(), experiment.getSeed())
            : PathChoice.NONE;
        final NdpHosts hosts = NdpHosts.onLinks(each[0], shape.nodes(), flows.sender, flows.receiver, flows.start, flows.size, flows.description,
            paths, HtsimExperiment.PULL_RATE, HtsimExperiment.PULL_ORDER);
        flows.attach(hosts);
        final VirtualTimeEngine.Switches parts = built.parts();
        // NDP keeps a flow's packets in flight to about its window (and as many control packets back): a tree's queues
        // could hold far more than ever travels, and the pool's rows are mapped for all it may hold.
        final long inFlight = 16L * flows.sender.length * (experiment.getInitialWindowPackets() + 16) + (1 << 16);
        final NetworkRun run = new NetworkRun(new VirtualTimeEngine(parts, tree.wiring(), hosts, hosts, pool(each, hosts, inFlight),
            Picos.fromMicros(experiment.getMaxDurationUs()), LinkFailures.NONE), null, tree);
        run.htsimFlows = flows;
        return run;
    }

    /**
     * The fat tree and the flows of an experiment written for htsim, run by Ultra Ethernet hosts (NSCC and the load balancer
     * of {@code settings}); the switches remark trims before the last hop and mark ECN at their data queues for them.
     */
    public static NetworkRun of(final HtsimExperiment experiment, final UetSettings settings) {
        final UetNetwork derived = UetNetwork.of(experiment, settings);
        final FatTree.Shape shape = experiment.shape();
        final int switches = shape.switches();
        final Settings[] each = new Settings[switches];
        final java.util.Map<Settings, Settings> marked = new java.util.IdentityHashMap<>();
        for (int sw = 0; sw < switches; sw++) {
            final Settings plain = experiment.settings(sw);
            final int hostPorts = shape.tier(sw) == 0 ? shape.hostsPerTor() : 0;
            each[sw] = marked.computeIfAbsent(plain, s -> UetNetwork.marked(s, hostPorts, s.egressPorts()));
        }
        final TreeSwitches built = TreeSwitches.of(experiment, each);
        final FatTree tree = built.tree();
        final boolean spray = built.spray();
        final HtsimFlows flows = HtsimFlows.of(experiment, settings.connectionReuse());
        final UetHosts.EntropyPaths paths = spray ? new UetEntropyPaths(tree, flows.sender, flows.receiver, experiment.getSeed()) : (flow, forward, entropy) -> 0;
        final UetHosts hosts = new UetHosts(each[0], shape.nodes(), flows.sender, flows.receiver, flows.start, flows.size, flows.messages,
            flows.description + ", UET " + settings.loadBalancer().label(), paths, settings, derived.nscc(), derived.initialWindowBytes(),
            derived.rtoPicos());
        flows.attach(hosts);
        final int oversubscription = UetNetwork.oversubscription(shape);
        if (settings.oversubscribedCcOn(oversubscription)) {
            // As uet-htsim: receivers pacing on an oversubscribed tree pull no faster than its core carries.
            hosts.oversubscribedCc(oversubscription, derived.rttPicos(), experiment.getSeed());
        }
        final VirtualTimeEngine.Switches parts = built.parts();
        final long inFlight = 16L * flows.sender.length * (derived.windowPackets() + 16) + (1 << 16);
        final NetworkRun run = new NetworkRun(new VirtualTimeEngine(parts, tree.wiring(), hosts, hosts, pool(each, hosts, inFlight),
            Picos.fromMicros(experiment.getMaxDurationUs()), LinkFailures.NONE), null, tree);
        for (int sw = 0; sw < switches; sw++) {
            final AssembledSwitch assembly = run.engine.node(sw).assembly();
            final Settings own = each[sw];
            for (int port = 0; port < assembly.ports(); port++) {
                // As uet-htsim, a link slowed by --fail keeps its queue's and its ECN thresholds' time: both shrink with its rate.
                final double slowed = port < shape.ports(sw) ? experiment.rateLeft(sw, port) : 1;
                // As uet-htsim, receivers that pace their senders leave the racks' links to hosts unmarked.
                final boolean toHost = shape.tier(sw) == 0 && port < shape.hostsPerTor();
                assembly.port(port).ecnMarking(settings.cc().receiver() && toHost ? null : derived.marking(experiment.getSeed(), sw, port, slowed));
                if (slowed < 1 && assembly.port(port).dataQueue() instanceof io.trimswitch.trafficmanager.PacketFifo fifo) {
                    // The queue htsim shrinks counts the packet being sent, as the whole one did: one fewer waits here.
                    fifo.limit(Math.max(1, (int) ((own.fabric().dataQueuePackets() + 1) * slowed) - 1));
                }
            }
        }
        run.htsimFlows = flows;
        run.uet = derived;
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

    /** htsim_uec's data queue when none is given, one bandwidth-delay product: in whole packets, or in MTUs of payload. */
    public static int uetQueuePackets(final HtsimExperiment experiment, final boolean wholePackets) {
        return UetNetwork.defaultQueuePackets(experiment, wholePackets);
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
        final NdpHosts hosts = NdpHosts.onLinks(settings.leaf(), network.hosts(), workload.sender, workload.receiver, workload.start, workload.size,
            workload.description, spray ? spraying : PathChoice.NONE);
        final LinkFailures failures = new FailingLinks(network, spraying, settings.topology().failedLinks(),
            Picos.fromMicros(settings.topology().failureDetectionUs()));
        final VirtualTimeEngine.Switches parts = new VirtualTimeEngine.Switches(each, names, tiers, forwarding);
        return new NetworkRun(new VirtualTimeEngine(parts, network.wiring(), hosts, hosts, pool(each, hosts), Picos.fromMicros(
            settings.transport().maxDurationUs()), failures), network);
    }

    /**
     * One switch with the NDP hosts of {@code settings} on its ports, wired as a lone switch is: host link p on port p
     * (and, with separate hosts, receiving link {@code ports + p} on egress port {@code ports + p}).
     */
    public static NetworkRun singleSwitch(final Settings settings) {
        final NdpHosts hosts = NdpHosts.forPattern(settings,
            Pattern.of(settings));
        final VirtualTimeEngine.Switches parts = VirtualTimeEngine.Switches.lone(settings);
        return new NetworkRun(new VirtualTimeEngine(parts, Wiring.loneSwitch(settings.egressPorts()), hosts, hosts, pool(parts.settings(), hosts),
            Picos.fromMicros(settings.transport().maxDurationUs()), LinkFailures.NONE), null);
    }

    /** Buffers for every packet the switches' queues can hold, and for those on each link's propagation delay. */
    private static PacketPool pool(final Settings[] switches, final NdpHosts hosts) {
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

    /** The hosts' transport: "ndp" or "uet". */
    String transport() {
        return uet == null ? "ndp" : "uet";
    }

    /** What the Ultra Ethernet hosts did in the last run, or null: NDP hosts. */
    HtsimReport.Uet uetReport() {
        if (uet == null) {
            return null;
        }
        final UetHosts hosts = (UetHosts) engine.hosts();
        long timeouts = 0;
        long quickAdapts = 0;
        long pulls = 0;
        long credit = 0;
        for (int flow = 0; flow < hosts.flows(); flow++) {
            timeouts += hosts.timeouts(flow);
            quickAdapts += hosts.quickAdapts(flow);
            pulls += hosts.pulls(flow);
            credit += hosts.grantedBytes(flow);
        }
        long marked = 0;
        for (int sw = 0; sw < engine.switches(); sw++) {
            final AssembledSwitch assembly = engine.node(sw).assembly();
            for (int port = 0; port < assembly.ports(); port++) {
                marked += assembly.port(port).ecnMarking() != null ? assembly.port(port).ecnMarking().marked() : 0;
            }
        }
        final UetSettings s = uet.settings();
        return new HtsimReport.Uet(s.loadBalancer().label(), s.entropies(), uet.rttPicos() / 1e6, uet.bdpPackets(), uet.targetDelayPicos() / 1e6,
            uet.ecnLowPackets(), uet.ecnHighPackets(), uet.rtoPicos() / 1e6, hosts.nacksSent(), hosts.lastHopNacks(), timeouts, quickAdapts, marked,
            s.cc().receiver() ? new HtsimReport.Rccc(s.cc().label(), pulls, credit, hosts.oversubscribedCc()) : null);
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
