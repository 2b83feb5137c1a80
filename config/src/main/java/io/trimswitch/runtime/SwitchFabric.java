package io.trimswitch.runtime;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.pipeline.ForwardingStage;
import io.trimswitch.pipeline.IngressMeters;
import io.trimswitch.pipeline.IngressPipeline;
import io.trimswitch.pipeline.PortSubnetForwarding;
import io.trimswitch.pipeline.ThreeMeterProfile;
import io.trimswitch.pipeline.TrimStateTable;
import io.trimswitch.pipeline.TwoMeterProfile;
import io.trimswitch.recirc.CongestionSignals;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.tm.DataQueueOverflow;
import io.trimswitch.tm.DeflectOnDrop;
import io.trimswitch.tm.EgressPort;
import io.trimswitch.tm.IdealTrimming;
import io.trimswitch.tm.MirrorOnDrop;
import io.trimswitch.tm.TrafficManager;
import io.trimswitch.tm.TrafficManagerEvents;

/**
 * The switch's components wired for one mechanism, independent of the clock that drives them:
 * egress ports and the traffic manager, the ingress pipelines with their meters and trim states,
 * the recirculation ports and the congestion signal.
 */
public final class SwitchFabric {
    private static final long IDEAL_COIN_SALT = 0x5DEECE66DL;

    private final Mechanism mechanism;
    private final TrimSettings trimSettings;
    private final EgressPort[] ports;
    /** Ingress port → owning pipeline, looked up per packet instead of divided out. */
    private final int[] pipelineOfPort;
    private final TrafficManager trafficManager;
    private final IngressPipeline[] pipelines;
    private final CongestionSignals signals;
    private final RecirculationPort[] recirculation;

    public SwitchFabric(
        final SwitchSettings settings, final PacketPool pool, final TrafficManagerEvents events,
        final CongestionSignals.Scheduled notifyScheduled) {
        this.mechanism = settings.mechanismValue();
        this.pipelineOfPort = new int[settings.egressPorts()];
        for (int port = 0; port < pipelineOfPort.length; port++) {
            pipelineOfPort[port] = (port % settings.ports()) / settings.fabric.portsPerPipeline;
        }
        final int pipelineCount = settings.fabric.pipelines;
        final int portsPerPipeline = settings.fabric.portsPerPipeline;
        final int portCount = settings.egressPorts();
        final LinkRate portRate = new LinkRate(settings.portRateBps());
        this.trimSettings = settings.trimSettings();

        this.ports = new EgressPort[portCount];
        for (int port = 0; port < portCount; port++) {
            ports[port] = new EgressPort(port, portRate, pool, settings.fabric.dataQueuePackets,
                settings.fabric.headerQueuePackets, settings.fabric.headersPerData);
        }
        final DataQueueOverflow overflow;
        switch (mechanism) {
            case IDEAL:
                overflow = new IdealTrimming(settings.workload.seed ^ IDEAL_COIN_SALT);
                break;
            case MOD:
                overflow = new MirrorOnDrop(pipelineCount, portsPerPipeline, settings.recirculation.mirrorQueuePackets);
                break;
            default:
                overflow = new DeflectOnDrop(pipelineCount, portsPerPipeline, settings.recirculation.dodQueuePackets);
        }
        this.trafficManager = new TrafficManager(pool, ports, trimSettings, settings.trim.returnToSender, overflow, events);

        final ForwardingStage forwarding = new PortSubnetForwarding(settings.ports(), settings.separateHosts());
        final long t0 = Picos.fromMicros(settings.control.t0Us);
        final long t1 = settings.control.halftimistic ? Picos.fromMicros(settings.control.t1Us) : t0;
        this.pipelines = new IngressPipeline[pipelineCount];
        for (int pipeline = 0; pipeline < pipelineCount; pipeline++) {
            pipelines[pipeline] = new IngressPipeline(pipeline, pool, trimSettings, forwarding, meters(settings, portCount),
                new TrimStateTable(portCount, t0, t1), trafficManager);
        }

        final long latency = Picos.fromNanos(settings.recirculation.latencyNs);
        this.signals = mechanism.raisesSignals()
            ? new CongestionSignals(
                "backlog".equals(settings.control.signal) ? CongestionSignals.Trigger.BACKLOG : CongestionSignals.Trigger.EVERY,
                settings.control.signalBacklog,
                "origin".equals(settings.control.notify) ? CongestionSignals.Scope.ORIGIN : CongestionSignals.Scope.ALL,
                latency, pipelines, notifyScheduled)
            : null;
        final LinkRate recirculationRate = new LinkRate(Math.round(settings.recirculation.rateGbps * 1e9));
        this.recirculation = new RecirculationPort[pipelineCount];
        for (int pipeline = 0; pipeline < pipelineCount; pipeline++) {
            if (overflow.recirculationQueue(pipeline) != null) {
                recirculation[pipeline] = new RecirculationPort(pipeline, overflow.recirculationQueue(pipeline),
                    recirculationRate, latency, trafficManager, signals);
            }
        }
    }

    private IngressMeters meters(final SwitchSettings settings, final int portCount) {
        if (!mechanism.hasIngressMeters()) {
            return null;
        }
        final long rate = settings.portRateBps();
        final long half = settings.halftimisticRateBps();
        final long pessimistic = settings.pessimisticRateBps();
        final int burst = settings.meterBurstBytes();
        return "two".equals(settings.control.meters)
            ? new TwoMeterProfile(portCount, rate, half, pessimistic, burst)
            : new ThreeMeterProfile(portCount, rate, half, pessimistic, burst);
    }

    public Mechanism mechanism() {
        return mechanism;
    }

    public TrimSettings trimSettings() {
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

    /** Null when the mechanism raises no congestion signal. */
    public CongestionSignals signals() {
        return signals;
    }

    /** The DoD (or, for {@code mod}, mirror) port of {@code pipeline}; null for {@code ideal}. */
    public RecirculationPort recirculation(final int pipeline) {
        return recirculation[pipeline];
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
    }
}
