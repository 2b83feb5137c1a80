package io.trimswitch.simulator;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.pipelines.StateProbe;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.capture.FrameCapture;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;


/**
 * The one virtual-time engine: a network of switches on one event queue, cables between their ports, host links at
 * their edges, and one pool of packet buffers that a packet keeps from host to host. A lone switch is a network of
 * one. Traffic comes from NDP hosts that react to every delivery, or from a source outside (open-loop senders, a
 * replayed capture) whose packets enter the first switch at their ingress port. Same input, same result, bit for bit;
 * the engine can {@link #run()} many times, each run from scratch.
 *
 * <p>At one instant, a packet from the source comes first, then a frame reaching a host, then one reaching a switch
 * over a cable, then the queue's events in their fixed order.
 */
public final class VirtualTimeEngine implements EndHosts.Switch {
    /** Who the switches are: per switch, its settings, name, tier and forwarding stage. */
    public record Switches(Settings[] settings, String[] names, String[] tiers, ForwardingStage[] forwarding) {
        /** A lone switch of {@code settings}, with the forwarding its settings ask for. */
        public static Switches lone(final Settings settings) {
            return new Switches(new Settings[] {settings}, new String[] {"switch"}, new String[] {"leaf"},
                new ForwardingStage[] {AssembledSwitch.defaultForwarding(settings)});
        }
    }

    private final Wiring wiring;
    private final SwitchNode[] nodes;
    /** Per network port and per network recirculation port: its switch. */
    private final SwitchNode[] nodeOfPort;
    private final SwitchNode[] nodeOfRecirculation;
    private final PacketPool pool;
    /** What feeds the network: the NDP hosts, or packets from outside. */
    private final TrafficSource source;
    /** The NDP hosts, or null when the traffic comes from outside. */
    private final EndHosts hosts;
    private final RunRecorder recorder;
    private final EventQueue events = new EventQueue();
    /**
     * Frames on a link towards a host, and frames on a cable towards the next switch. Every link has the same delay and
     * frames leave the switches in time order, so each FIFO is in arrival order: merged with the event queue, they cost
     * no heap operation per frame.
     */
    private final TimedIntFifo toHosts = new TimedIntFifo(1024);
    private final TimedIntFifo betweenSwitches = new TimedIntFifo(1024);
    private final long latency;
    private final long durationPicos;
    private final DownLinks down;
    /** The frames crossing the first switch's ports, shown whole to a capture; null: none. */
    private WholeFrames captures;
    private TimelineProbe timeline;
    /** A packet from the source is being handled: at its instant it comes before any transmission ending. */
    private boolean handlingArrival;
    private long now;
    private long lastPacketPicos;
    private long eventsHandled;

    /**
     * The network of {@code switches} wired by {@code wiring}, fed by {@code source} (the NDP hosts {@code hosts}, or
     * with {@code hosts} null a source outside that feeds the first switch), its packets in {@code pool}; a run lasts
     * {@code durationPicos} at most.
     */
    public VirtualTimeEngine(final Switches switches, final Wiring wiring, final TrafficSource source, final EndHosts hosts,
        final PacketPool pool, final long durationPicos, final LinkFailures failures) {
        this.wiring = wiring;
        this.source = source;
        this.hosts = hosts;
        this.pool = pool;
        this.durationPicos = durationPicos;
        this.latency = hosts == null ? 0 : hosts.propagationPicos();
        final NetworkNodes network = new NetworkNodes(this, switches, wiring, pool);
        this.nodes = network.nodes();
        this.nodeOfPort = network.ofPort();
        this.nodeOfRecirculation = network.ofRecirculation();
        this.recorder = new RunRecorder(source.flows(), (int) Math.min(source.packets(), Integer.MAX_VALUE - 8));
        this.down = new DownLinks(failures, wiring.ports());
    }

    /** Hands every frame that crosses a port of the first switch to {@code capture} (null: none). */
    public void capture(final FrameCapture capture) {
        this.captures = capture == null ? null : new WholeFrames(capture, pool);
    }

    /** Records the first switch's trim-state changes and DoD queue depths in every later run (null: stop recording). */
    public void record(final TimelineProbe probe) {
        this.timeline = probe;
        final SwitchNode first = nodes[0];
        for (int pipeline = 0; pipeline < first.assembly().pipelines(); pipeline++) {
            first.assembly().pipeline(pipeline).trimStates().probe(pipeline, probe == null ? StateProbe.NONE : probe);
        }
    }

    /** Runs from time zero until the source and the hosts are done or the run's time is up; returns what it left behind. */
    public Outcome run() {
        reset();
        // Hosts react to every delivery, and captures and the timeline see all ports in time order: only without them
        // may a port's transmissions end lazily.
        final boolean lazily = hosts == null && captures == null && timeline == null;
        for (final SwitchNode node : nodes) {
            node.lazyEgress(lazily);
        }
        if (timeline != null) {
            timeline.prepare(nodes[0].assembly().pipelines(), nodes[0].assembly().ports());
            events.schedule(0, EventType.SAMPLE, 0);
        }
        down.schedule(events);
        if (hosts != null) {
            hosts.start(this);
        }
        while (true) {
            final long nextEvent = events.isEmpty() ? Long.MAX_VALUE : events.nextTime();
            final long nextSend = source.nextTime();
            final long nextHost = toHosts.isEmpty() ? Long.MAX_VALUE : toHosts.headTime();
            final long nextHop = betweenSwitches.isEmpty() ? Long.MAX_VALUE : betweenSwitches.headTime();
            if (Math.min(Math.min(nextEvent, nextSend), Math.min(nextHost, nextHop)) > durationPicos) {
                break;
            }
            eventsHandled++;
            if (nextSend <= nextEvent && nextSend <= nextHost && nextSend <= nextHop) {
                now = nextSend;
                receiveFromSource();
                continue;
            }
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
            handle(events.takeHead());
            events.doneWithHead();
        }
        for (final SwitchNode node : nodes) {
            node.egress().endRun(durationPicos);
        }
        final long inFlight = drainInFlight();
        return new Outcome(inFlight, pool.inUse());
    }

    /** What a run left behind: packets still inside the network at its end (counted as dropped), and buffers never freed (0). */
    public record Outcome(long inFlightAtEnd, int leakedBuffers) {
    }

    private void handle(final long tag) {
        final int arg = EventQueue.arg(tag);
        switch (EventQueue.type(tag)) {
            case EventType.EGRESS_DONE -> {
                final SwitchNode node = nodeOfPort[arg];
                node.egress().transmissionDone(arg - node.portBase(), now);
            }
            case EventType.RECIRCULATION_DONE -> {
                final SwitchNode node = nodeOfRecirculation[arg];
                node.recirculationDone(arg - node.recirculationBase(), now);
            }
            case EventType.RECIRCULATION_RETURN -> {
                final SwitchNode node = nodeOfRecirculation[arg];
                node.assembly().recirculation(arg - node.recirculationBase()).returnDue(now);
            }
            case EventType.NOTIFY -> nodes[arg].assembly().notifications().deliverDue(now);
            case EventType.SAMPLE -> {
                timeline.sample(now, nodes[0].assembly());
                events.doneWithHead();
                // Sample while anything else can still happen.
                if (!events.isEmpty() || !toHosts.isEmpty() || !betweenSwitches.isEmpty() || source.nextTime() != Long.MAX_VALUE) {
                    schedule(now + timeline.samplePeriodPicos(), EventType.SAMPLE, 0);
                }
            }
            case EventType.LINK_TO_SWITCH, EventType.PULL_TICK, EventType.RETRANSMIT_TIMEOUT, EventType.FLOW_START, EventType.HOST_LINK_FREE ->
                hosts.onEvent(EventQueue.type(tag), arg, now);
            case EventType.LINK_DOWN -> down.fail(arg, now, events);
            case EventType.ROUTES_UPDATED -> down.routeAround(arg);
            default -> throw new IllegalStateException("unknown event type " + EventQueue.type(tag));
        }
    }

    /** The source's next packet has fully arrived at its ingress port of the first switch. */
    private void receiveFromSource() {
        final int handle = TrafficSource.take(source, pool, recorder);
        if (handle != PacketPool.NO_PACKET) {
            handlingArrival = true;
            pool.arrivalPicos(handle, now);
            enter(nodes[0], pool.ingressPort(handle), handle, now);
            handlingArrival = false;
        }
    }

    /** A frame has fully arrived at {@code port} of {@code node}: the pipeline that owns the port takes it. */
    private void enter(final SwitchNode node, final int port, final int handle, final long time) {
        if (captures != null) {
            captures.received(node.portBase() + port, handle, time);
        }
        node.ingress(port).receive(handle, time);
    }

    /** The last bit of {@code handle} left {@code port} of {@code node}: onto a host's link, or a cable to the next switch. */
    void deliver(final SwitchNode node, final int port, final int handle, final long time) {
        lastPacketPicos = Math.max(lastPacketPicos, time);
        final int at = node.portBase() + port;
        if (captures != null) {
            captures.sent(at, handle, time);
        }
        if (wiring.hostAt(at) >= 0) {
            // Without end hosts a control packet is just a replayed frame of its flow, delivered like any other.
            if (hosts != null && PacketClass.isControl(pool.classification(handle))) {
                recorder.controlDelivered();
            } else {
                recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), time);
            }
            if (hosts != null) {
                toHosts.add(time + latency, handle);
            } else {
                pool.free(handle);
            }
            return;
        }
        if (down.isDown(at)) {
            node.dropAt(port, handle, DropReason.LINK_DOWN);
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
        if (down.isDown(at)) {
            // The link failed while the frame was on it.
            node.dropAt(at - node.portBase(), handle, DropReason.LINK_DOWN);
            return;
        }
        final int port = at - node.portBase();
        pool.ingressPort(handle, port);
        // The egress port was the last switch's; this switch's pipeline looks up its own.
        pool.egressPort(handle, -1);
        enter(node, port, handle, now);
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
        final int port = at - node.portBase();
        pool.ingressPort(handle, port);
        // Header latency counts from the packet's entry into the network.
        pool.arrivalPicos(handle, time);
        enter(node, port, handle, time);
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
        // Without end hosts a control packet is just a replayed frame of its flow.
        recorder.dropped(hosts != null && PacketClass.isControl(pool.classification(handle)), pool.flow(handle), reason);
        pool.free(handle);
    }

    boolean handlingArrival() {
        return handlingArrival;
    }

    /** Whatever is still inside a switch or on a cable when the run ends is counted as dropped, never lost. */
    private long drainInFlight() {
        final long[] drained = new long[1];
        for (final SwitchNode node : nodes) {
            node.assembly().drainTo(handle -> {
                drained[0]++;
                node.dropInside(handle, DropReason.IN_FLIGHT_AT_END);
            });
        }
        while (!betweenSwitches.isEmpty()) {
            final int handle = betweenSwitches.removeHead();
            drained[0]++;
            final int at = pool.ingressPort(handle);
            nodeOfPort[at].dropAt(at - nodeOfPort[at].portBase(), handle, DropReason.IN_FLIGHT_AT_END);
        }
        // Frames on their way to hosts have left the network already: only their buffers are freed.
        while (!toHosts.isEmpty()) {
            pool.free(toHosts.removeHead());
        }
        return drained[0];
    }

    private void reset() {
        events.clear();
        handlingArrival = false;
        toHosts.clear();
        betweenSwitches.clear();
        pool.reset();
        for (final SwitchNode node : nodes) {
            node.reset();
        }
        // Routing first: the senders' paths start from the routes it gives.
        down.reset();
        recorder.reset();
        source.reset();
        now = 0;
        lastPacketPicos = 0;
        eventsHandled = 0;
    }

    // ---- what runs and reports read ----------------------------------------------------------------------------

    public SwitchNode node(final int sw) {
        return nodes[sw];
    }

    public int switches() {
        return nodes.length;
    }

    public Wiring wiring() {
        return wiring;
    }

    public RunRecorder recorder() {
        return recorder;
    }

    public TrafficSource source() {
        return source;
    }

    /** The end hosts, or null when the traffic came from outside. */
    public EndHosts hosts() {
        return hosts;
    }

    public long durationPicos() {
        return durationPicos;
    }

    /** When the last packet left a switch. */
    public long lastPacketPicos() {
        return lastPacketPicos;
    }

    /** The time of the last event handled (the end of the run at the latest). */
    public long lastEventPicos() {
        return now;
    }

    /** Events handled, a transmission that ended lazily counting as the event it replaced. */
    public long eventsHandled() {
        long replaced = 0;
        for (final SwitchNode node : nodes) {
            replaced += node.egress().eventsReplaced();
        }
        return eventsHandled + replaced;
    }
}
