package io.trimswitch.network;

import io.trimswitch.config.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipeline.ForwardingStage;
import io.trimswitch.runtime.EventQueue;
import io.trimswitch.runtime.EventType;
import io.trimswitch.runtime.FlowLifetimes;
import io.trimswitch.runtime.NdpHosts;
import io.trimswitch.runtime.RunOutcome;
import io.trimswitch.runtime.RunRecorder;
import io.trimswitch.runtime.SwitchFabric;
import io.trimswitch.runtime.SwitchRun;
import io.trimswitch.runtime.SwitchRunView;
import io.trimswitch.runtime.TrafficSource;
import io.trimswitch.runtime.VirtualTimeSwitch;

import java.util.List;

/**
 * A network of switches and its NDP hosts in deterministic virtual time, on one event queue: each switch's components
 * wired for its mechanism as a lone switch's are, cables between their ports, one pool of packet buffers that a packet
 * keeps from host to host. Same settings, same result, bit for bit; a network can be {@link #run()} many times.
 */
public final class NetworkRun implements NdpHosts.Switch {
    /** What a buffer keeps of a frame of the model's hosts: the headers, in one cache line. */
    private static final int HEADER_BYTES = 64;

    private final Wiring wiring;
    private final SwitchNode[] nodes;
    /** Per network port and per network recirculation port: its switch. */
    private final SwitchNode[] nodeOfPort;
    private final SwitchNode[] nodeOfRecirculation;
    private final PacketPool pool;
    private final NdpHosts hosts;
    private final RunRecorder recorder;
    private final EventQueue events = new EventQueue();
    /**
     * Frames on a link towards a host, and frames on a cable towards the next switch. Every link has the same delay and
     * frames leave the switches in time order, so each FIFO is in arrival order.
     */
    private final TimedIntFifo toHosts = new TimedIntFifo(1024);
    private final TimedIntFifo betweenSwitches = new TimedIntFifo(1024);
    private final long latency;
    private final long durationPicos;
    /** Per network port: its link has failed, and what is sent onto it or is on it is lost. */
    private final boolean[] portDown;
    /** The leaf-spine layout (null for a single switch), its links that fail during a run, and the senders' spraying (null: none). */
    private final LeafSpine leafSpine;
    private final List<NetworkSettings.Link> failures;
    private final long detectionPicos;
    private final PathSpraying spraying;
    private long now;
    private long lastPacketPicos;
    private long eventsHandled;

    private NetworkRun(final Settings[] switchSettings, final String[] names, final String[] tiers, final ForwardingStage[] forwarding,
        final Wiring wiring, final NdpHosts hosts, final long durationPicos, final LeafSpine leafSpine, final PathSpraying spraying,
        final List<NetworkSettings.Link> failures, final long detectionPicos) {
        this.wiring = wiring;
        this.leafSpine = leafSpine;
        this.spraying = spraying;
        this.failures = failures;
        this.detectionPicos = detectionPicos;
        this.hosts = hosts;
        this.durationPicos = durationPicos;
        this.latency = hosts.propagationPicos();
        long bound = 0;
        for (int sw = 0; sw < switchSettings.length; sw++) {
            bound += VirtualTimeSwitch.capacityBound(switchSettings[sw]);
            for (int port = 0; port < switchSettings[sw].egressPorts(); port++) {
                bound += latency / new LinkRate(switchSettings[sw].portRateBps(port)).serialisation(64) + 2;
            }
        }
        final Settings first = switchSettings[0];
        this.pool = new PacketPool((int) Math.min(bound, Integer.MAX_VALUE - 8),
            Math.max(first.workload().packetBytes(), 64), HEADER_BYTES);
        this.nodes = new SwitchNode[switchSettings.length];
        this.nodeOfPort = new SwitchNode[wiring.ports()];
        int recirculationBase = 0;
        for (int sw = 0; sw < nodes.length; sw++) {
            nodes[sw] = new SwitchNode(this, sw, names[sw], tiers[sw], switchSettings[sw], pool, forwarding[sw], wiring.portBase(sw),
                recirculationBase);
            recirculationBase += nodes[sw].fabric.recirculationPorts();
            for (int port = 0; port < nodes[sw].fabric.ports(); port++) {
                nodeOfPort[wiring.port(sw, port)] = nodes[sw];
            }
        }
        if (wiring.ports() > EventQueue.MAX_ARG || recirculationBase > EventQueue.MAX_ARG) {
            throw new io.trimswitch.config.ConfigException("the network has " + wiring.ports() + " ports; at most " + EventQueue.MAX_ARG + " fit");
        }
        this.nodeOfRecirculation = new SwitchNode[recirculationBase];
        for (final SwitchNode node : nodes) {
            for (int pipeline = 0; pipeline < node.fabric.recirculationPorts(); pipeline++) {
                nodeOfRecirculation[node.recirculationBase + pipeline] = node;
            }
        }
        this.recorder = new RunRecorder(hosts.flows(), (int) Math.min(hosts.packets(), Integer.MAX_VALUE - 8));
        this.portDown = new boolean[wiring.ports()];
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
            workload.description, spray ? spraying : io.trimswitch.runtime.PathChoice.NONE);
        return new NetworkRun(each, names, tiers, forwarding, network.wiring(), hosts, Picos.fromMicros(settings.transport().maxDurationUs()),
            network, spraying, settings.topology().failedLinks(), Picos.fromMicros(settings.topology().failureDetectionUs()));
    }

    /**
     * One switch with the NDP hosts of {@code settings} on its ports, as {@link VirtualTimeSwitch} runs them: host link
     * p on port p (and, with separate hosts, receiving link {@code ports + p} on egress port {@code ports + p}).
     */
    public static NetworkRun singleSwitch(final Settings settings) {
        final Wiring wiring = new Wiring(new int[] {settings.egressPorts()}, settings.egressPorts());
        for (int port = 0; port < settings.egressPorts(); port++) {
            wiring.plugHost(port, 0, port);
        }
        final NdpHosts hosts = NdpHosts.forPattern(settings,
            Pattern.parse(settings.workload().pattern(), settings.fabric().pipelines(), settings.fabric().portsPerPipeline()));
        return new NetworkRun(new Settings[] {settings}, new String[] {"switch"}, new String[] {"leaf"},
            new ForwardingStage[] {SwitchFabric.defaultForwarding(settings)}, wiring, hosts, Picos.fromMicros(settings.transport().maxDurationUs()),
            null, null, List.of(), 0);
    }

    /** Runs the workload from time zero until every flow completes or the run's time is up. */
    public Outcome run() {
        reset();
        for (int failure = 0; failure < failures.size(); failure++) {
            if (failures.get(failure).atUs() > 0) {
                events.schedule(Picos.fromMicros(failures.get(failure).atUs()), EventType.LINK_DOWN, failure);
            }
        }
        hosts.start(this);
        while (true) {
            final long nextEvent = events.isEmpty() ? Long.MAX_VALUE : events.nextTime();
            final long nextHost = toHosts.isEmpty() ? Long.MAX_VALUE : toHosts.headTime();
            final long nextHop = betweenSwitches.isEmpty() ? Long.MAX_VALUE : betweenSwitches.headTime();
            if (Math.min(nextEvent, Math.min(nextHost, nextHop)) > durationPicos) {
                break;
            }
            eventsHandled++;
            // At the same instant: a frame reaching a host, then one reaching a switch over a cable, then events.
            if (nextHost <= nextEvent && nextHost <= nextHop) {
                now = nextHost;
                hosts.arriveAtHost(toHosts.removeHead(), now);
                continue;
            }
            if (nextHop <= nextEvent) {
                now = nextHop;
                arriveOverCable(betweenSwitches.removeHead());
                continue;
            }
            now = nextEvent;
            final long tag = events.takeHead();
            final int arg = EventQueue.arg(tag);
            switch (EventQueue.type(tag)) {
                case EventType.EGRESS_DONE -> {
                    final SwitchNode node = nodeOfPort[arg];
                    final int port = arg - node.portBase;
                    deliver(node, port, node.fabric.port(port).finishTransmission(), now);
                    startEgress(node, port, now);
                }
                case EventType.RECIRCULATION_DONE -> {
                    final SwitchNode node = nodeOfRecirculation[arg];
                    final int pipeline = arg - node.recirculationBase;
                    schedule(node.fabric.recirculation(pipeline).finishTransmission(now), EventType.RECIRCULATION_RETURN, arg);
                    startRecirculation(node, pipeline, now);
                }
                case EventType.RECIRCULATION_RETURN -> {
                    final SwitchNode node = nodeOfRecirculation[arg];
                    node.fabric.recirculation(arg - node.recirculationBase).returnDue(now);
                }
                case EventType.NOTIFY -> nodes[arg].fabric.notifications().deliverDue(now);
                case EventType.LINK_TO_SWITCH, EventType.PULL_TICK, EventType.RETRANSMIT_TIMEOUT, EventType.FLOW_START ->
                    hosts.onEvent(EventQueue.type(tag), arg, now);
                case EventType.LINK_DOWN -> linkDown(failures.get(arg), arg);
                case EventType.ROUTES_UPDATED -> routeAround(failures.get(arg));
                default -> throw new IllegalStateException("unknown event type " + EventQueue.type(tag));
            }
            events.doneWithHead();
        }
        final long inFlight = drainInFlight();
        return new Outcome(inFlight, pool.inUse());
    }

    /** What a run left behind: packets still inside the network at its end (counted as dropped), and buffers never freed (0). */
    public record Outcome(long inFlightAtEnd, int leakedBuffers) {
    }

    /** A link fails: both its ends stop carrying frames, and the network learns of it a detection time later. */
    private void linkDown(final NetworkSettings.Link link, final int failure) {
        for (final int end : leafSpine.cableEnds(link.leaf(), link.spine())) {
            portDown[end] = true;
        }
        schedule(now + detectionPicos, EventType.ROUTES_UPDATED, failure);
    }

    /** The leaves, the spines and the senders leave the failed link out of every path from now on. */
    private void routeAround(final NetworkSettings.Link link) {
        leafSpine.fail(link.leaf(), link.spine());
        if (spraying != null) {
            spraying.pathsChanged();
        }
    }

    void startEgress(final SwitchNode node, final int port, final long time) {
        final long done = node.fabric.port(port).startTransmission(time);
        if (done >= 0) {
            schedule(done, EventType.EGRESS_DONE, node.portBase + port);
        }
    }

    void startRecirculation(final SwitchNode node, final int pipeline, final long time) {
        final long done = node.fabric.recirculation(pipeline).startTransmission(time);
        if (done >= 0) {
            schedule(done, EventType.RECIRCULATION_DONE, node.recirculationBase + pipeline);
        }
    }

    /** The last bit of {@code handle} left {@code port} of {@code node}: onto a host's link, or a cable to the next switch. */
    private void deliver(final SwitchNode node, final int port, final int handle, final long time) {
        lastPacketPicos = Math.max(lastPacketPicos, time);
        final int at = node.portBase + port;
        if (wiring.hostAt(at) >= 0) {
            if (PacketClass.isControl(pool.classification(handle))) {
                recorder.controlDelivered();
            } else {
                recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), time);
            }
            toHosts.add(time + latency, handle);
            return;
        }
        if (portDown[at]) {
            node.drop(handle, DropReason.LINK_DOWN, time);
            return;
        }
        // The far end's port, kept in the buffer's ingress port until the frame arrives there.
        pool.ingressPort(handle, wiring.peerOf(at));
        betweenSwitches.add(time + latency, handle);
    }

    /** A frame crossed a cable: the next switch's pipeline that owns the port takes it. */
    private void arriveOverCable(final int handle) {
        final int at = pool.ingressPort(handle);
        final SwitchNode node = nodeOfPort[at];
        if (portDown[at]) {
            // The link failed while the frame was on it.
            node.drop(handle, DropReason.LINK_DOWN, now);
            return;
        }
        final int port = at - node.portBase;
        pool.ingressPort(handle, port);
        // The egress port was the last switch's; this switch's pipeline looks up its own.
        pool.egressPort(handle, -1);
        node.fabric.pipeline(node.fabric.pipelineOf(port)).receive(handle, now);
    }

    @Override
    public void schedule(final long time, final int type, final int arg) {
        events.schedule(time, type, arg);
    }

    @Override
    public int allocate() {
        return pool.allocate();
    }

    /** A host's frame has fully arrived at the switch port its link is plugged into. */
    @Override
    public void inject(final int handle, final boolean control, final long time) {
        recorder.sent(control, pool.flow(handle));
        final int at = wiring.portOfLink(pool.ingressPort(handle));
        final SwitchNode node = nodeOfPort[at];
        final int port = at - node.portBase;
        pool.ingressPort(handle, port);
        // Header latency counts from the packet's entry into the network.
        pool.arrivalPicos(handle, time);
        node.fabric.pipeline(node.fabric.pipelineOf(port)).receive(handle, time);
    }

    @Override
    public void noBuffer(final int flow, final boolean control) {
        recorder.sent(control, flow);
        recorder.dropped(control, flow, DropReason.BUFFER_EXHAUSTED);
    }

    @Override
    public PacketPool pool() {
        return pool;
    }

    void drop(final int handle, final DropReason reason) {
        recorder.dropped(PacketClass.isControl(pool.classification(handle)), pool.flow(handle), reason);
        pool.free(handle);
    }

    /** Whatever is still inside a switch or on a cable when the run ends is counted as dropped, never lost. */
    private long drainInFlight() {
        final long[] drained = new long[1];
        for (final SwitchNode node : nodes) {
            node.fabric.drainTo(handle -> {
                drained[0]++;
                node.drop(handle, DropReason.IN_FLIGHT_AT_END, durationPicos);
            });
        }
        while (!betweenSwitches.isEmpty()) {
            final int handle = betweenSwitches.removeHead();
            drained[0]++;
            nodeOfPort[pool.ingressPort(handle)].drop(handle, DropReason.IN_FLIGHT_AT_END, durationPicos);
        }
        // Frames on their way to hosts have left the network already: only their buffers are freed.
        while (!toHosts.isEmpty()) {
            pool.free(toHosts.removeHead());
        }
        return drained[0];
    }

    private void reset() {
        events.clear();
        toHosts.clear();
        betweenSwitches.clear();
        pool.reset();
        for (final SwitchNode node : nodes) {
            node.reset();
        }
        java.util.Arrays.fill(portDown, false);
        // Routing first: the senders' spraying starts from the paths it gives.
        if (leafSpine != null) {
            leafSpine.reset();
        }
        recorder.reset();
        hosts.reset();
        now = 0;
        lastPacketPicos = 0;
        eventsHandled = 0;
    }

    /** Packets the hosts sent into the network in the last run: data, and NDP's ACKs, NACKs and PULLs. */
    public long packetsSent() {
        return recorder.sentTotal() + recorder.controlSentCount();
    }

    /** Packets the switches received in the last run, over all their ports: a packet crossing three switches counts three times. */
    public long switchHops() {
        long hops = 0;
        for (final SwitchNode node : nodes) {
            for (int port = 0; port < node.fabric.ports(); port++) {
                hops += node.fabric.port(port).counters().rxPackets();
            }
        }
        return hops;
    }

    /** Hosts on the network's links. */
    public int hostCount() {
        return wiring.hostLinks();
    }

    // ---- what reports read --------------------------------------------------------------------------------------

    SwitchNode node(final int sw) {
        return nodes[sw];
    }

    int switches() {
        return nodes.length;
    }

    RunRecorder recorder() {
        return recorder;
    }

    FlowLifetimes lifetimes() {
        return hosts;
    }

    TrafficSource hosts() {
        return hosts;
    }

    long durationPicos() {
        return durationPicos;
    }

    long lastPacketPicos() {
        return lastPacketPicos;
    }

    long eventsHandled() {
        return eventsHandled;
    }

    /**
     * A one-switch network's run as a lone switch's: what {@code ReportBuilder} reads, so that its report can be set
     * beside {@link VirtualTimeSwitch}'s.
     */
    public RunOutcome asSwitchRun(final Outcome outcome) {
        return new RunOutcome(switchView(0), outcome.inFlightAtEnd(), outcome.leakedBuffers());
    }

    /** What port {@code port} of switch {@code sw} is cabled to ("host5", "spine1"), or null. */
    String attached(final int sw, final int port) {
        return leafSpine == null ? null : leafSpine.attached(sw, port);
    }

    /** Switch {@code sw} of this run as a lone switch's run: its settings and components, the network's flows. */
    SwitchRun switchView(final int sw) {
        return new SwitchRunView(nodes[sw].settings, hosts, nodes[sw].fabric, recorder, durationPicos, lastPacketPicos, eventsHandled, hosts,
            "ndp");
    }
}
