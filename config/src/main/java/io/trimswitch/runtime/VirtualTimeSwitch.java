package io.trimswitch.runtime;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Pattern;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.recirc.CongestionSignals;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.tm.TrafficManagerEvents;

import java.util.SplittableRandom;

/**
 * The whole switch in deterministic virtual time: the dataplane's components driven by an event
 * queue, with open-loop senders and recording receivers on the ports. Same settings, same seed, same
 * result, bit for bit. A switch can be {@link #run()} many times; each run starts from scratch.
 */
public final class VirtualTimeSwitch implements TrafficManagerEvents {
    private static final int EGRESS_DONE = 1;
    private static final int RECIRCULATION_DONE = 2;
    private static final int RECIRCULATION_RETURN = 3;
    private static final int NOTIFY = 4;
    private static final int SAMPLE = 5;

    private final SwitchSettings settings;
    private final Pattern pattern;
    private final SwitchFabric fabric;
    private final PacketPool pool;
    private final EventQueue events = new EventQueue();
    private final RunRecorder recorder;
    private final int portsPerPipeline;
    private final long durationPicos;
    private final int packetBytes;
    private final int packetsPerFlow;
    private final long packetTime;
    private final SenderSchedule senders;
    private final int dataDscp;
    private final int ndpUdpPort;
    private PortCaptures captures;
    private TimelineProbe timeline;
    private long now;
    private long eventsHandled;

    public VirtualTimeSwitch(final SwitchSettings settings) {
        this.settings = settings.copy().validate();
        this.pattern = Pattern.parse(this.settings.workload.pattern, this.settings.fabric.pipelines, this.settings.fabric.portsPerPipeline);
        this.portsPerPipeline = this.settings.fabric.portsPerPipeline;
        this.packetBytes = this.settings.workload.packetBytes;
        this.packetsPerFlow = this.settings.workload.packets;
        this.durationPicos = Picos.fromMicros(this.settings.workload.durationUs);
        final int totalPackets = Math.multiplyExact(pattern.flows(), packetsPerFlow);
        // A run can never hold more packets than its senders send.
        this.pool = new PacketPool(totalPackets);
        this.fabric = new SwitchFabric(this.settings, pool, this, due -> events.schedule(due, NOTIFY, 0));
        this.recorder = new RunRecorder(pattern.flows(), totalPackets);
        this.packetTime = new LinkRate(this.settings.portRateBps()).serialisation(packetBytes);
        final long[] firstArrival = new long[pattern.flows()];
        final SplittableRandom jitter = new SplittableRandom(this.settings.workload.seed);
        for (int flow = 0; flow < pattern.flows(); flow++) {
            final long start = this.settings.workload.startJitter ? jitter.nextLong(packetTime) : 0;
            firstArrival[flow] = start + packetTime;
        }
        this.senders = new SenderSchedule(firstArrival, packetTime, packetsPerFlow);
        this.dataDscp = this.settings.trim.trimmableDscp.isEmpty() ? 0 : this.settings.trim.trimmableDscp.get(0);
        this.ndpUdpPort = this.settings.trim.ndpUdpPort;
    }

    /** Writes every frame that crosses a port to per-port pcaps in {@code captures} (null: none). */
    public void capture(final PortCaptures portCaptures) {
        this.captures = portCaptures;
    }

    /** Records trim-state changes and DoD queue depths of every later run (null: stop recording). */
    public void record(final TimelineProbe probe) {
        this.timeline = probe;
        for (int pipeline = 0; pipeline < fabric.pipelines(); pipeline++) {
            fabric.pipeline(pipeline).trimStates().probe(pipeline, probe == null ? io.trimswitch.pipeline.StateProbe.NONE : probe);
        }
    }

    /** Runs the workload from time zero to the end of the run and returns the raw outcome. */
    public RunOutcome run() {
        reset();
        if (timeline != null) {
            timeline.prepare(fabric.pipelines(), fabric.ports());
            events.schedule(0, SAMPLE, 0);
        }
        while (true) {
            final long nextEvent = events.isEmpty() ? Long.MAX_VALUE : events.nextTime();
            final long nextSend = senders.nextTime();
            if (Math.min(nextEvent, nextSend) > durationPicos) {
                break;
            }
            eventsHandled++;
            // A packet arriving at the same instant as an event is handled first.
            if (nextSend <= nextEvent) {
                now = nextSend;
                send(senders.nextFlow(), senders.nextSequence());
                senders.advance();
                continue;
            }
            now = nextEvent;
            final long tag = events.poll();
            final int arg = EventQueue.arg(tag);
            switch (EventQueue.type(tag)) {
                case EGRESS_DONE:
                    deliver(arg, fabric.port(arg).finishTransmission());
                    startEgress(arg);
                    break;
                case RECIRCULATION_DONE:
                    events.schedule(fabric.recirculation(arg).finishTransmission(now), RECIRCULATION_RETURN, arg);
                    startRecirculation(arg);
                    break;
                case RECIRCULATION_RETURN:
                    fabric.recirculation(arg).returnDue(now);
                    break;
                case NOTIFY:
                    fabric.signals().deliverDue(now);
                    break;
                case SAMPLE:
                    timeline.sample(now, fabric);
                    events.schedule(now + timeline.samplePeriodPicos(), SAMPLE, 0);
                    break;
                default:
                    throw new IllegalStateException("unknown event type " + EventQueue.type(tag));
            }
        }
        final long inFlight = drainInFlight();
        return new RunOutcome(this, inFlight, pool.inUse());
    }

    private void send(final int flow, final int sequence) {
        final int sender = pattern.sender(flow);
        recorder.sent(flow);
        final int handle = pool.allocate();
        if (handle == PacketPool.NO_PACKET) {
            recorder.dropped(flow, DropReason.BUFFER_EXHAUSTED);
        } else {
            WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), packetBytes, sender, pattern.receiver(flow),
                flow, sequence, dataDscp, ndpUdpPort);
            pool.length(handle, packetBytes);
            pool.ingressPort(handle, sender);
            pool.flow(handle, flow);
            pool.sequence(handle, sequence);
            pool.arrivalPicos(handle, now);
            if (captures != null) {
                captures.received(sender, now, pool.buffer(handle), pool.offset(handle), packetBytes);
            }
            fabric.pipeline(sender / portsPerPipeline).receive(handle, now);
        }
    }

    private void deliver(final int port, final int handle) {
        if (captures != null) {
            captures.sent(port, now, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
        recorder.delivered(pool.flow(handle), pool.trimKind(handle), pool.returnedToSender(handle), pool.arrivalPicos(handle), now);
        pool.free(handle);
    }

    private void startEgress(final int port) {
        final long done = fabric.port(port).startTransmission(now);
        if (done >= 0) {
            events.schedule(done, EGRESS_DONE, port);
        }
    }

    private void startRecirculation(final int pipeline) {
        final long done = fabric.recirculation(pipeline).startTransmission(now);
        if (done >= 0) {
            events.schedule(done, RECIRCULATION_DONE, pipeline);
        }
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long time) {
        recorder.dropped(pool.flow(handle), reason);
        pool.free(handle);
    }

    @Override
    public void egressPending(final int port, final long time) {
        startEgress(port);
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
        final java.util.function.IntConsumer asInFlight = handle -> {
            drained[0]++;
            drop(handle, DropReason.IN_FLIGHT_AT_END, durationPicos);
        };
        for (int port = 0; port < fabric.ports(); port++) {
            fabric.port(port).drainTo(asInFlight);
        }
        for (int pipeline = 0; pipeline < fabric.pipelines(); pipeline++) {
            if (fabric.recirculation(pipeline) != null) {
                fabric.recirculation(pipeline).drainTo(asInFlight);
            }
        }
        return drained[0];
    }

    private void reset() {
        events.clear();
        pool.reset();
        fabric.reset();
        recorder.reset();
        senders.reset();
        now = 0;
        eventsHandled = 0;
    }

    public SwitchSettings settings() {
        return settings;
    }

    public Mechanism mechanism() {
        return fabric.mechanism();
    }

    public Pattern pattern() {
        return pattern;
    }

    public SwitchFabric fabric() {
        return fabric;
    }

    public RunRecorder recorder() {
        return recorder;
    }

    public long durationPicos() {
        return durationPicos;
    }

    /** The time of the last event handled: when the switch went quiet, or the end of the run. */
    public long lastEventPicos() {
        return now;
    }

    public long eventsHandled() {
        return eventsHandled;
    }

    public long packetTimePicos() {
        return packetTime;
    }

    public CongestionSignals signals() {
        return fabric.signals();
    }
}
