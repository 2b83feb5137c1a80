package io.trimswitch.runtime;

import io.trimswitch.config.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.pipeline.StateProbe;
import io.trimswitch.recirc.CongestionSignals;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.tm.TrafficManagerEvents;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The whole switch in deterministic virtual time: the dataplane's components driven by an event
 * queue, fed by a {@link TrafficSource} (open-loop senders, NDP end hosts, or a replayed capture), with
 * every packet that leaves recorded. Same input, same result, bit for bit. A switch can be
 * {@link #run()} many times; each run starts from scratch.
 */
public final class VirtualTimeSwitch implements SwitchRun, TrafficManagerEvents, NdpHosts.Switch {
    /** What a buffer keeps of a frame of the model's own hosts: its headers, up to the NDP header, in one cache line. */
    private static final int HEADER_BYTES = 64;

    private final Settings settings;
    private final TrafficSource source;
    /** The NDP end hosts when the transport is NDP, else null. */
    private final NdpHosts ndp;
    private final SwitchFabric fabric;
    private final PacketPool pool;
    private final EventQueue events = new EventQueue();
    /**
     * Frames on their way from the switch to NDP hosts. Every host link has the same delay and frames leave
     * the switch in time order, so this FIFO is in arrival order: merged with the event queue, it costs no
     * heap operation per frame.
     */
    private final TimedIntFifo toHosts = new TimedIntFifo(1024);
    private final RunRecorder recorder;
    private final long durationPicos;
    private FrameCapture captures;
    /** A captured frame made whole: its stored headers, then the zeros of its payload. */
    private final UnsafeBuffer captured = new UnsafeBuffer(new byte[PacketPool.SLOT_BYTES]);
    private TimelineProbe timeline;
    private long now;
    private long lastPacketPicos;
    private long eventsHandled;
    private final EgressTiming eager;
    /** Only when nothing watches the order of deliveries across ports. */
    private final EgressTiming lazy;
    /** This run's: {@link #lazy} unless NDP hosts, captures or the timeline watch the deliveries. */
    private EgressTiming egress;
    /** A packet from the source is being handled: at its instant it comes before any transmission ending. */
    private boolean handlingArrival;

    /** The switch of {@code settings} with the hosts of its workload: NDP end hosts or open-loop senders. */
    public VirtualTimeSwitch(final Settings settings) {
        this(settings, null, -1);
    }

    /**
     * The switch of {@code settings} fed by {@code source}; the run lasts {@code durationPicos}, or until
     * the switch is empty when that is negative.
     */
    public VirtualTimeSwitch(final Settings settings, final TrafficSource source, final long durationPicos) {
        // Traffic from outside (a replay) has hosts of its own: the model's transport does not apply.
        this.settings = source != null ? settings.withOpenLoop() : settings;
        this.ndp = source == null && this.settings.ndp() ? new NdpHosts(this.settings, pattern(this.settings)) : null;
        this.source = source != null ? source : ndp != null ? ndp : OpenLoopSenders.forWorkload(this.settings);
        if (source != null) {
            this.durationPicos = durationPicos < 0 ? EventQueue.MAX_TIME : durationPicos;
        } else if (ndp != null) {
            this.durationPicos = Picos.fromMicros(this.settings.transport().maxDurationUs());
        } else {
            this.durationPicos = Picos.fromMicros(this.settings.workload().durationUs());
        }
        // Open loop or replay: never more packets than the source sends, nor more than the queues can hold.
        // NDP: the queues, plus frames on their way from the switch to the hosts.
        final long bound = capacityBound(this.settings);
        final int packets = (int) (ndp != null ? bound + hostLinkBound(this.settings) : Math.min(this.source.packets(), bound) + 1);
        // The model's own hosts write a frame's headers and leave its payload zeros, which nothing reads: a buffer
        // keeps only the headers (a cache line), so a DoD queue of 47 000 packets is 3 MB, not 75 MB. A replay's
        // frames are kept whole.
        this.pool = source == null
            ? new PacketPool(packets, Math.max(this.settings.workload().packetBytes(), HostLinks.CONTROL_BYTES), HEADER_BYTES)
            : new PacketPool(packets);
        this.fabric = new SwitchFabric(this.settings, pool, this, due -> schedule(due, EventType.NOTIFY, 0));
        this.eager = new EagerEgress(fabric, this, this::deliver);
        this.lazy = new LazyEgress(fabric, this::deliver);
        this.egress = eager;
        this.recorder = new RunRecorder(this.source.flows(), (int) Math.min(this.source.packets(), Integer.MAX_VALUE - 8));
    }

    private static Pattern pattern(final Settings settings) {
        return Pattern.parse(settings.workload().pattern(), settings.fabric().pipelines(), settings.fabric().portsPerPipeline());
    }

    /** Frames between the switch and the hosts: each egress port's link holds at most a propagation delay's worth. */
    private static long hostLinkBound(final Settings s) {
        final long smallest = new LinkRate(s.portRateBps()).serialisation(64);
        return (long) s.egressPorts() * (Picos.fromNanos(s.transport().propagationNs()) / smallest + 2);
    }

    /** The most packets the switch's queues, recirculation loops and in-service slots can hold at once. */
    public static long capacityBound(final Settings s) {
        final long minimumFrameTime = Math.max(1, new LinkRate(Math.round(s.recirculation().rateGbps() * 1e9)).serialisation(14));
        final long looping = Picos.fromNanos(s.recirculation().latencyNs()) / minimumFrameTime + 2;
        return (long) s.egressPorts() * (s.dataQueuePacketsPerPort() + s.fabric().headerQueuePackets() + 1)
            + (long) s.recirculationPorts() * (Math.max(s.recirculation().dodQueuePackets(), s.recirculation().mirrorQueuePackets()) + looping + 1)
            + 1;
    }

    /** Hands every frame that crosses a port to {@code capture} (null: none). */
    public void capture(final FrameCapture capture) {
        this.captures = capture;
    }

    /** Records trim-state changes and DoD queue depths of every later run (null: stop recording). */
    public void record(final TimelineProbe probe) {
        this.timeline = probe;
        for (int pipeline = 0; pipeline < fabric.pipelines(); pipeline++) {
            fabric.pipeline(pipeline).trimStates().probe(pipeline, probe == null ? StateProbe.NONE : probe);
        }
    }

    /** Runs the workload from time zero to the end of the run and returns the raw outcome. */
    public RunOutcome run() {
        reset();
        // NDP hosts react to every delivery, and captures and the timeline see all ports in time order.
        egress = ndp == null && captures == null && timeline == null ? lazy : eager;
        if (timeline != null) {
            timeline.prepare(fabric.pipelines(), fabric.ports());
            events.schedule(0, EventType.SAMPLE, 0);
        }
        if (ndp != null) {
            ndp.start(this);
        }
        while (true) {
            final long nextEvent = events.isEmpty() ? Long.MAX_VALUE : events.nextTime();
            final long nextSend = source.nextTime();
            final long nextHost = toHosts.isEmpty() ? Long.MAX_VALUE : toHosts.headTime();
            if (Math.min(Math.min(nextEvent, nextSend), nextHost) > durationPicos) {
                break;
            }
            eventsHandled++;
            // At the same instant: a packet arriving at the switch, then one arriving at a host, then events.
            if (nextSend <= nextEvent && nextSend <= nextHost) {
                now = nextSend;
                receive();
                continue;
            }
            if (nextHost <= nextEvent) {
                now = nextHost;
                ndp.arriveAtHost(toHosts.removeHead(), now);
                continue;
            }
            now = nextEvent;
            final long tag = events.takeHead();
            final int arg = EventQueue.arg(tag);
            switch (EventQueue.type(tag)) {
                case EventType.EGRESS_DONE:
                    egress.transmissionDone(arg, now);
                    break;
                case EventType.RECIRCULATION_DONE:
                    schedule(fabric.recirculation(arg).finishTransmission(now), EventType.RECIRCULATION_RETURN, arg);
                    startRecirculation(arg);
                    break;
                case EventType.RECIRCULATION_RETURN:
                    fabric.recirculation(arg).returnDue(now);
                    break;
                case EventType.NOTIFY:
                    fabric.notifications().deliverDue(now);
                    break;
                case EventType.SAMPLE:
                    timeline.sample(now, fabric);
                    events.doneWithHead();
                    // Sample while anything else can still happen.
                    if (!events.isEmpty() || !toHosts.isEmpty() || source.nextTime() != Long.MAX_VALUE) {
                        schedule(now + timeline.samplePeriodPicos(), EventType.SAMPLE, 0);
                    }
                    break;
                case EventType.LINK_TO_SWITCH:
                case EventType.PULL_TICK:
                case EventType.RETRANSMIT_TIMEOUT:
                case EventType.FLOW_START:
                    ndp.onEvent(EventQueue.type(tag), arg, now);
                    break;
                default:
                    throw new IllegalStateException("unknown event type " + EventQueue.type(tag));
            }
            events.doneWithHead();
        }
        egress.endRun(durationPicos);
        final long inFlight = drainInFlight();
        return new RunOutcome(this, inFlight, pool.inUse());
    }

    /** The source's next packet has fully arrived at its ingress port. */
    private void receive() {
        final int handle = TrafficSource.take(source, pool, recorder);
        if (handle != PacketPool.NO_PACKET) {
            handlingArrival = true;
            enterSwitch(handle, now);
            handlingArrival = false;
        }
    }

    /** A frame has fully arrived at its ingress port: the pipeline that owns the port takes it. */
    private void enterSwitch(final int handle, final long time) {
        pool.arrivalPicos(handle, time);
        final int port = pool.ingressPort(handle);
        if (captures != null) {
            capture(false, port, handle, time);
        }
        fabric.pipeline(fabric.pipelineOf(port)).receive(handle, time);
    }

    /** The last bit of {@code handle} left egress port {@code port} at {@code time}. */
    private void deliver(final int port, final int handle, final long time) {
        lastPacketPicos = Math.max(lastPacketPicos, time);
        if (captures != null) {
            capture(true, port, handle, time);
        }
        // Without end hosts a control packet is just a replayed frame of its flow, delivered like any other.
        if (ndp != null && PacketClass.isControl(pool.classification(handle))) {
            recorder.controlDelivered();
        } else {
            recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), time);
        }
        if (ndp != null) {
            toHosts.add(time + ndp.propagationPicos(), handle);
        } else {
            pool.free(handle);
        }
    }

    /** Hands frame {@code handle} to the captures whole: from its buffer, or made whole where the buffer keeps only headers. */
    private void capture(final boolean sent, final int port, final int handle, final long time) {
        final int length = pool.length(handle);
        final UnsafeBuffer buffer;
        final int offset;
        if (length <= pool.storedBytes()) {
            buffer = pool.buffer(handle);
            offset = pool.offset(handle);
        } else {
            pool.copyFrame(handle, captured, 0);
            buffer = captured;
            offset = 0;
        }
        if (sent) {
            captures.sent(port, time, buffer, offset, length);
        } else {
            captures.received(port, time, buffer, offset, length);
        }
    }

    @Override
    public void schedule(final long time, final int type, final int arg) {
        events.schedule(time, type, arg);
    }

    @Override
    public int allocate() {
        return pool.allocate();
    }

    @Override
    public void inject(final int handle, final boolean control, final long time) {
        recorder.sent(control, pool.flow(handle));
        enterSwitch(handle, time);
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

    @Override
    /** How each flow's life went, when the transport has flows that finish (NDP); else null. */
    public FlowLifetimes flowLifetimes() {
        return ndp;
    }

    @Override
    /** The transport: open-loop senders, NDP hosts, or a replay. */
    public String transport() {
        return ndp != null ? "ndp" : source instanceof OpenLoopSenders ? "open-loop" : "replay";
    }

    private void startRecirculation(final int pipeline) {
        final long done = fabric.recirculation(pipeline).startTransmission(now);
        if (done >= 0) {
            schedule(done, EventType.RECIRCULATION_DONE, pipeline);
        }
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long time) {
        // Without end hosts a control packet is just a replayed frame of its flow.
        recorder.dropped(ndp != null && PacketClass.isControl(pool.classification(handle)), pool.flow(handle), reason);
        pool.free(handle);
    }

    /** A packet from the source comes before a transmission that ends at its instant; any other event comes after it. */
    @Override
    public void beforeEnqueue(final int port, final long time) {
        egress.beforeEnqueue(port, handlingArrival ? time - 1 : time);
    }

    @Override
    public void egressPending(final int port, final long time) {
        egress.pending(port, time);
    }

    @Override
    public void recirculationPending(final int pipeline, final long time) {
        final RecirculationPort port = fabric.recirculation(pipeline);
        if (port.isIdle()) {
            startRecirculation(pipeline);
        }
    }

    /** Whatever is still inside the switch when the run ends is counted, never lost. */
    private long drainInFlight() {
        final long[] drained = new long[1];
        fabric.drainTo(handle -> {
            drained[0]++;
            drop(handle, DropReason.IN_FLIGHT_AT_END, durationPicos);
        });
        // Frames still on their way to hosts have left the switch already: only their buffers are freed.
        while (!toHosts.isEmpty()) {
            pool.free(toHosts.removeHead());
        }
        return drained[0];
    }

    private void reset() {
        events.clear();
        handlingArrival = false;
        toHosts.clear();
        pool.reset();
        fabric.reset();
        recorder.reset();
        source.reset();
        now = 0;
        lastPacketPicos = 0;
        eventsHandled = 0;
        eager.reset();
        lazy.reset();
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public TrafficSource source() {
        return source;
    }

    @Override
    public SwitchFabric fabric() {
        return fabric;
    }

    @Override
    public RunRecorder recorder() {
        return recorder;
    }

    @Override
    public long durationPicos() {
        return durationPicos;
    }

    /** The time of the last event handled (the end of the run at the latest). */
    public long lastEventPicos() {
        return now;
    }

    @Override
    /** When the last packet left the switch. */
    public long lastPacketPicos() {
        return lastPacketPicos;
    }

    @Override
    public long eventsHandled() {
        return eventsHandled + egress.eventsReplaced();
    }

    public CongestionSignals signals() {
        return fabric.signals();
    }
}
