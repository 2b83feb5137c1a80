package io.trimswitch.switching;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.dataplane.util.Tunable;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.pipelines.IngressPipeline;
import io.trimswitch.pipelines.PortSubnetForwarding;
import io.trimswitch.pipelines.TrimStateTable;
import io.trimswitch.recirc.CongestionSignals;
import io.trimswitch.recirc.DelayedNotifications;
import io.trimswitch.recirc.NotifyChannel;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.mechanism.MechanismParts;
import io.trimswitch.switching.mechanism.Mechanisms;
import io.trimswitch.switching.mechanism.SwitchMechanism;
import io.trimswitch.trafficmanager.DataQueueOverflow;
import io.trimswitch.trafficmanager.DataQueueScheduler;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.trafficmanager.PortCounters;
import io.trimswitch.trafficmanager.QueueFactory;
import io.trimswitch.trafficmanager.TrafficManager;
import io.trimswitch.trafficmanager.TrafficManagerEvents;

import java.util.function.Function;

/**
 * The switch's components wired for one mechanism, independent of the clock that drives them:
 * egress ports and the traffic manager, the ingress pipelines with their meters and trim states,
 * the recirculation ports and the congestion signal.
 */
public final class AssembledSwitch {
    private final Mechanism mechanism;
    /** The trim settings every pipeline and the traffic manager read: a running switch may change them. */
    private final Tunable<TrimSettings> trimSettings;
    private final EgressPort[] ports;
    /** Ingress port → owning pipeline, looked up per packet instead of divided out. */
    private final int[] pipelineOfPort;
    private final TrafficManager trafficManager;
    private final IngressPipeline[] pipelines;
    private final CongestionSignals signals;
    private final RecirculationPort[] recirculation;
    private final CounterRegistry counters;

    /** How the components' threads see the traffic manager: one shared instance, or one per thread. */
    public interface TrafficManagerThreads {
        /** One thread drives everything: every component uses the shared traffic manager. */
        TrafficManagerThreads ONE = (component, pipeline, shared) -> shared;

        /** The traffic manager ingress pipeline or recirculation port {@code pipeline} uses. */
        TrafficManager of(Component component, int pipeline, TrafficManager shared);
    }

    /** The components that feed the traffic manager from a thread of their own in real time. */
    public enum Component {
        INGRESS,
        RECIRCULATION
    }

    private final DelayedNotifications notifications;

    /**
     * The switch driven by one thread: single-threaded queues, NOTIFYs delivered when the runtime says, and the
     * pipelines' forwarding stage; its ports count into {@code counters}.
     */
    public AssembledSwitch(
        final Settings settings, final PacketPool pool, final CounterRegistry counters, final TrafficManagerEvents events,
        final DelayedNotifications.Scheduled notifyScheduled, final ForwardingStage forwarding) {
        this(settings, pool, counters, QueueFactory.SINGLE_THREADED, events, TrafficManagerThreads.ONE,
            pipelines -> new DelayedNotifications(pipelines, notifyScheduled), forwarding);
    }

    /**
     * The switch with queues from {@code queues}, each component's view of the traffic manager from
     * {@code threads}, NOTIFYs carried by the channel {@code notify} makes for the pipelines, and the
     * pipelines' forwarding stage; every counter of it lives in {@code counters}.
     */
    public AssembledSwitch(
        final Settings settings, final PacketPool pool, final CounterRegistry counters, final QueueFactory queues,
        final TrafficManagerEvents events, final TrafficManagerThreads threads, final Function<IngressPipeline[], NotifyChannel> notify,
        final ForwardingStage forwarding) {
        this.counters = counters;
        this.mechanism = settings.mechanism();
        this.pipelineOfPort = new int[settings.egressPorts()];
        for (int port = 0; port < pipelineOfPort.length; port++) {
            pipelineOfPort[port] = (port % settings.portCount()) / settings.fabric().portsPerPipeline();
        }
        final int pipelineCount = settings.fabric().pipelines();
        final int portCount = settings.egressPorts();
        this.trimSettings = new Tunable<>(settings.trimSettings());

        this.ports = new EgressPort[portCount];
        for (int port = 0; port < portCount; port++) {
            ports[port] = egressPort(settings, port, pool, queues, new PortCounters(counters, port, "egress"));
        }
        final SwitchMechanism kind = Mechanisms.of(mechanism);
        final MechanismParts parts = new MechanismParts(settings, queues, ports);
        final DataQueueOverflow overflow = kind.overflow(parts);
        this.trafficManager = new TrafficManager(pool, ports, trimSettings, settings.trim().returnToSender(), overflow, events);

        final long t0 = Picos.fromMicros(settings.control().t0Us());
        final long t1 = settings.control().halftimistic() ? Picos.fromMicros(settings.control().t1Us()) : t0;
        this.pipelines = new IngressPipeline[pipelineCount];
        final IngressMeters[] meters = kind.meters(parts);
        for (int pipeline = 0; pipeline < pipelineCount; pipeline++) {
            pipelines[pipeline] = new IngressPipeline(pipeline, pool, trimSettings, forwarding, meters[pipeline],
                new TrimStateTable(portCount, t0, t1, settings.control().loop() == Settings.Loop.BACKLOG),
                threads.of(Component.INGRESS, pipeline, trafficManager));
        }

        final long latency = Picos.fromNanos(settings.recirculation().latencyNs());
        final NotifyChannel channel = notify.apply(pipelines);
        this.notifications = channel instanceof DelayedNotifications ? (DelayedNotifications) channel : null;
        this.signals = kind.raisesSignals()
            ? new CongestionSignals(
                settings.control().signal() == Settings.SignalTrigger.BACKLOG ? CongestionSignals.Trigger.BACKLOG : CongestionSignals.Trigger.EVERY,
                settings.control().signalBacklog(),
                settings.control().notifyScope() == Settings.NotifyScope.ORIGIN ? CongestionSignals.Scope.ORIGIN : CongestionSignals.Scope.ALL,
                latency, pipelineCount, channel)
            : null;
        final LinkRate recirculationRate = new LinkRate(Math.round(settings.recirculation().rateGbps() * 1e9));
        this.recirculation = new RecirculationPort[settings.recirculationPorts()];
        for (int pipeline = 0; pipeline < recirculation.length; pipeline++) {
            if (overflow.recirculationQueue(pipeline) != null) {
                recirculation[pipeline] = new RecirculationPort(pipeline, overflow.recirculationQueue(pipeline),
                    recirculationRate, latency, threads.of(Component.RECIRCULATION, pipeline, trafficManager), signals);
            }
        }
    }

    /** The model's table: 10.0.p.0/24 is port p (the host on port p has addresses 10.0.p.0/24). */
    public static ForwardingStage defaultForwarding(final Settings settings) {
        return new PortSubnetForwarding(settings.portCount(), settings.separateHosts());
    }

    /** Counters a registry needs for the ports' own counters and {@code writers} more sets per port (other threads'). */
    public static int counters(final Settings settings, final int writers) {
        return settings.egressPorts() * PortCounters.COUNTERS * (1 + writers);
    }

    /** Where every counter of this switch lives. */
    public CounterRegistry counters() {
        return counters;
    }

    public Mechanism mechanism() {
        return mechanism;
    }

    /** Recirculation ports, as many as the mechanism's layout gives the switch. */
    public int recirculationPorts() {
        return recirculation.length;
    }

    public TrimSettings trimSettings() {
        return trimSettings.get();
    }

    /**
     * Applies what a running switch may change from {@code from} to {@code to}, all of it from one thread: the trim
     * settings, T0 and T1, and each port whose rate or meters changed (its egress rate and every pipeline's meters for
     * it, which start afresh). Packets already queued or in service keep what they were given.
     *
     * @return the ports whose rate changed, for the ingress links that pace them
     */
    public java.util.List<Integer> retune(final Settings from, final Settings to) {
        retuneShared(to);
        return retune(from, to, pipeline -> true, port -> true);
    }

    /** The trim settings every pipeline reads, from the one thread that changes them. */
    public void retuneShared(final Settings to) {
        trimSettings.set(to.trimSettings());
    }

    /**
     * The same for the pipelines and egress ports one thread owns, on that thread, so that each has one writer: their
     * T0 and T1, rates and meters.
     *
     * @return the ports whose rate changed, whoever owns them
     */
    public java.util.List<Integer> retune(final Settings from, final Settings to, final java.util.function.IntPredicate ownsPipeline,
        final java.util.function.IntPredicate ownsPort) {
        final long t0 = Picos.fromMicros(to.control().t0Us());
        final long t1 = to.control().halftimistic() ? Picos.fromMicros(to.control().t1Us()) : t0;
        final java.util.List<Integer> rateChanged = new java.util.ArrayList<>();
        final java.util.Set<IngressMeters> retuned = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (final IngressPipeline pipeline : pipelines) {
            if (ownsPipeline.test(pipeline.id())) {
                pipeline.trimStates().retime(t0, t1);
            }
        }
        for (int port = 0; port < ports.length; port++) {
            final boolean rate = from.portRateBps(port) != to.portRateBps(port);
            if (rate) {
                if (ownsPort.test(port)) {
                    ports[port].rate(new LinkRate(to.portRateBps(port)));
                }
                rateChanged.add(port);
            }
            if (rate || from.halftimisticRateBps(port) != to.halftimisticRateBps(port)
                || from.pessimisticRateBps(port) != to.pessimisticRateBps(port) || from.meterBurstBytes() != to.meterBurstBytes()) {
                retuned.clear();
                for (final IngressPipeline pipeline : pipelines) {
                    // Tofino 2's pipelines share one depth reader: retuned once (it has no rates).
                    if (pipeline.meters() != null && ownsPipeline.test(pipeline.id()) && retuned.add(pipeline.meters())) {
                        pipeline.meters().retune(port, to.portRateBps(port), to.halftimisticRateBps(port), to.pessimisticRateBps(port),
                            to.meterBurstBytes());
                    }
                }
            }
        }
        return java.util.List.copyOf(rateChanged);
    }

    /** The trim settings as a running switch changes them. */
    public Tunable<TrimSettings> tunableTrimSettings() {
        return trimSettings;
    }

    /** Egress ports: the switch's ports, and with separate NDP hosts one more per port for its sending host. */
    public int ports() {
        return ports.length;
    }

    /** The pipeline that owns ingress port {@code port} (a sending host's port belongs to its port's pipeline). */
    public int pipelineOf(final int port) {
        return pipelineOfPort[port];
    }

    public EgressPort port(final int id) {
        return ports[id];
    }

    public int pipelines() {
        return pipelines.length;
    }

    public IngressPipeline pipeline(final int id) {
        return pipelines[id];
    }

    public TrafficManager trafficManager() {
        return trafficManager;
    }

    /** NOTIFYs on their way when one thread drives the switch; null otherwise. */
    public DelayedNotifications notifications() {
        return notifications;
    }

    /** Null when the mechanism raises no congestion signal. */
    public CongestionSignals signals() {
        return signals;
    }

    /** The DoD (or, for {@code mod}, mirror) port of {@code pipeline}; null for {@code ideal}. */
    public RecirculationPort recirculation(final int pipeline) {
        return recirculation[pipeline];
    }

    /** Hands every packet still queued, in service or looping to {@code handle}: the egress ports' first, then the recirculation ports'. */
    public void drainTo(final java.util.function.IntConsumer handle) {
        for (final EgressPort port : ports) {
            port.drainTo(handle);
        }
        for (final RecirculationPort port : recirculation) {
            if (port != null) {
                port.drainTo(handle);
            }
        }
    }

    public void reset() {
        trafficManager.reset();
        for (final IngressPipeline pipeline : pipelines) {
            pipeline.reset();
        }
        for (final RecirculationPort port : recirculation) {
            if (port != null) {
                port.reset();
            }
        }
        if (signals != null) {
            signals.reset();
        }
        if (notifications != null) {
            notifications.reset();
        }
    }

    /** A port with the reproduced switch's one data queue, or the data queues of the settings' traffic classes. */
    private static EgressPort egressPort(
        final Settings settings, final int port, final PacketPool pool, final QueueFactory queues, final PortCounters counters) {
        final LinkRate rate = new LinkRate(settings.portRateBps(port));
        final int headerQueue = settings.fabric().headerQueuePackets();
        final int headersPerData = settings.fabric().headersPerData();
        if (!settings.qos().configured()) {
            return new EgressPort(port, rate, pool, new HandleQueue[] {queues.create(settings.fabric().dataQueuePackets(), true)},
                DataQueueScheduler.single(), queues.create(headerQueue, true), headersPerData, counters);
        }
        final int count = settings.dataQueueCount();
        final HandleQueue[] data = new HandleQueue[count];
        final boolean[] strict = new boolean[count];
        final int[] weights = new int[count];
        for (int queue = 0; queue < count; queue++) {
            final Settings.Queue configured = settings.qos().queues().get(queue);
            data[queue] = queues.create(configured.packets(), true);
            strict[queue] = configured.scheduling() == Settings.Scheduling.STRICT;
            weights[queue] = configured.weight();
        }
        return new EgressPort(port, rate, pool, data, new DataQueueScheduler(strict, weights), queues.create(headerQueue, true), headersPerData,
            counters);
    }

    /** The most packets the switch's queues, recirculation loops and in-service slots can hold at once. */
    public static long capacityBound(final Settings s) {
        final long minimumFrameTime = Math.max(1, new LinkRate(Math.round(s.recirculation().rateGbps() * 1e9)).serialisation(14));
        final long looping = Picos.fromNanos(s.recirculation().latencyNs()) / minimumFrameTime + 2;
        return (long) s.egressPorts() * (s.dataQueuePacketsPerPort() + s.fabric().headerQueuePackets() + 1)
            + (long) s.recirculationPorts() * (Math.max(s.recirculation().dodQueuePackets(), s.recirculation().mirrorQueuePackets()) + looping + 1)
            + 1;
    }
}
