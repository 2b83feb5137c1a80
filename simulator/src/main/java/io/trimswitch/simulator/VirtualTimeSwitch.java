package io.trimswitch.simulator;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.recirc.CongestionSignals;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.capture.FrameCapture;
import io.trimswitch.switching.source.OpenLoopSenders;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.run.SwitchRun;
import io.trimswitch.switching.run.SwitchRunView;
import io.trimswitch.switching.source.TrafficSource;

/**
 * A lone switch in deterministic virtual time: a network of one switch, run by the {@link VirtualTimeEngine}, fed by a
 * {@link TrafficSource} (open-loop senders, NDP end hosts, or a replayed capture), with every packet that leaves
 * recorded. Same input, same result, bit for bit. A switch can be {@link #run()} many times; each run starts from
 * scratch.
 */
public final class VirtualTimeSwitch {
    /** What a buffer keeps of a frame of the model's own hosts: its headers, up to the NDP header, in one cache line. */
    private static final int HEADER_BYTES = 64;

    private final Settings settings;
    private final TrafficSource source;
    /** The end hosts when the transport has them, else null. */
    private final EndHosts hosts;
    /** The hosts' transport, or null: open-loop senders or a replay. */
    private final String transport;
    private final VirtualTimeEngine engine;
    private final AssembledSwitch assembly;

    /** The switch of {@code settings} with the hosts of its workload: NDP end hosts or open-loop senders. */
    public VirtualTimeSwitch(final Settings settings) {
        this(settings, null, -1, null);
    }

    /** The switch of {@code settings} with the hosts of its workload, of its transport's settings {@code own} (null: its block's). */
    public VirtualTimeSwitch(final Settings settings, final TransportSettings own) {
        this(settings, null, -1, own);
    }

    /**
     * The switch of {@code settings} fed by {@code source}; the run lasts {@code durationPicos}, or until
     * the switch is empty when that is negative.
     */
    public VirtualTimeSwitch(final Settings settings, final TrafficSource source, final long durationPicos) {
        this(settings, source, durationPicos, null);
    }

    private VirtualTimeSwitch(final Settings settings, final TrafficSource source, final long durationPicos, final TransportSettings own) {
        // Traffic from outside (a replay) has hosts of its own: the model's transport does not apply.
        this.settings = source != null ? settings.withOpenLoop() : settings;
        final String kind = this.settings.transport().kind().label();
        final Transport chosen = source == null ? Transports.forKind(this.settings.transport().kind()) : null;
        final TransportRun run = chosen != null ? loneSwitch(chosen, this.settings, own) : null;
        this.hosts = run != null ? run.hosts() : null;
        this.transport = hosts != null ? kind : null;
        this.source = source != null ? source : hosts != null ? hosts : OpenLoopSenders.forWorkload(this.settings);
        final long duration;
        if (source != null) {
            duration = durationPicos < 0 ? EventQueue.MAX_TIME : durationPicos;
        } else if (hosts != null) {
            duration = Picos.fromMicros(this.settings.transport().maxDurationUs());
        } else {
            duration = Picos.fromMicros(this.settings.workload().durationUs());
        }
        // Open loop or replay: never more packets than the source sends, nor more than the queues can hold.
        // NDP: the queues, plus frames on their way from the switch to the hosts.
        final long bound = AssembledSwitch.capacityBound(this.settings);
        final int packets = (int) (hosts != null ? bound + hostLinkBound(this.settings) : Math.min(this.source.packets(), bound) + 1);
        // The model's own hosts write a frame's headers and leave its payload zeros, which nothing reads: a buffer
        // keeps only the headers (a cache line), so a DoD queue of 47 000 packets is 3 MB, not 75 MB. A replay's
        // frames are kept whole.
        final PacketPool pool = source == null
            ? new PacketPool(packets, Math.max(this.settings.workload().packetBytes(), HostLinks.CONTROL_BYTES), HEADER_BYTES)
            : new PacketPool(packets, PacketPool.slotFor(this.source.longestFrame()));
        this.engine = new VirtualTimeEngine(
            VirtualTimeEngine.Switches.lone(this.settings),
            Wiring.loneSwitch(this.settings.egressPorts()), this.source, hosts, pool, duration, LinkFailures.NONE);
        this.assembly = engine.node(0).assembly();
        if (run != null) {
            run.switchesBuilt(engine);
        }
    }

    private static TransportRun loneSwitch(final Transport transport, final Settings settings, final TransportSettings own) {
        return transport.loneSwitch(settings, own != null ? own : transport.settings(settings.transport().settings()));
    }

    /** Frames between the switch and the hosts: each egress port's link holds at most a propagation delay's worth. */
    private static long hostLinkBound(final Settings s) {
        final long smallest = new LinkRate(s.portRateBps()).serialisation(64);
        return (long) s.egressPorts() * (Picos.fromNanos(s.transport().propagationNs()) / smallest + 2);
    }

    /** Hands every frame that crosses a port to {@code capture} (null: none). */
    public void capture(final FrameCapture capture) {
        engine.capture(capture);
    }

    /** Records trim-state changes and DoD queue depths of every later run (null: stop recording). */
    public void record(final TimelineProbe probe) {
        engine.record(probe);
    }

    /** Runs the workload from time zero to the end of the run and returns the raw outcome. */
    public RunOutcome run() {
        final VirtualTimeEngine.Outcome outcome = engine.run();
        final SwitchRun finished = new SwitchRunView(settings, source, assembly, engine.recorder(), engine.durationPicos(), engine.lastPacketPicos(),
            engine.eventsHandled(), hosts, transport());
        return new RunOutcome(finished, outcome.inFlightAtEnd(), outcome.leakedBuffers());
    }

    /** The transport: open-loop senders, the hosts' transport, or a replay. */
    private String transport() {
        return transport != null ? transport : source instanceof OpenLoopSenders ? "open-loop" : "replay";
    }

    public Mechanism mechanism() {
        return assembly.mechanism();
    }

    /** The components, with every port's counters. */
    public AssembledSwitch assembly() {
        return assembly;
    }

    /** The time of the last event handled (the end of the run at the latest). */
    public long lastEventPicos() {
        return engine.lastEventPicos();
    }

    public CongestionSignals signals() {
        return assembly.signals();
    }
}
