package io.trimswitch.pipelines;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.util.Tunable;
import io.trimswitch.trafficmanager.PortCounters;
import io.trimswitch.trafficmanager.TrafficManager;

/**
 * One ingress pipeline: it owns a group of ports and, for every egress port of the switch, its own
 * meters and trim state — pipelines share nothing, which is the hardware constraint that makes the
 * worst case hard. A packet's path: parse → forwarding lookup → meters → trim decision → TM; a flooded frame's copies,
 * which the TM makes, each take the path from the meters on.
 */
public final class IngressPipeline {
    private final int id;
    private final PacketPool pool;
    /** Shared with the traffic manager: a running switch may change it. */
    private final Tunable<TrimSettings> trimSettings;
    private final ForwardingStage forwarding;
    private final IngressMeters meters;
    private final TrimStateTable trimStates;
    private final TrafficManager trafficManager;

    /**
     * @param meters null for mechanisms with no ingress meters ({@code ideal}, {@code mod})
     */
    public IngressPipeline(
        final int id, final PacketPool pool, final TrimSettings trimSettings,
        final ForwardingStage forwarding, final IngressMeters meters, final TrimStateTable trimStates,
        final TrafficManager trafficManager) {
        this(id, pool, new Tunable<>(trimSettings), forwarding, meters, trimStates, trafficManager);
    }

    /** A pipeline whose trim settings are {@code trimSettings}'s, as a running switch changes them. */
    public IngressPipeline(
        final int id, final PacketPool pool, final Tunable<TrimSettings> trimSettings,
        final ForwardingStage forwarding, final IngressMeters meters, final TrimStateTable trimStates,
        final TrafficManager trafficManager) {
        this.id = id;
        this.pool = pool;
        this.trimSettings = trimSettings;
        this.forwarding = forwarding;
        this.meters = meters;
        this.trimStates = trimStates;
        this.trafficManager = trafficManager;
    }

    /** A frame received whole on one of this pipeline's ports at {@code now}. */
    public void receive(final int handle, final long now) {
        final int length = pool.length(handle);
        final PortCounters rx = trafficManager.counters(pool.ingressPort(handle));
        rx.received(length);

        final int packetClass = PacketClass.classify(pool.buffer(handle), pool.offset(handle), length, trimSettings.get());
        pool.classification(handle, packetClass);
        if (PacketClass.isOpaque(packetClass)) {
            rx.receivedUntrimmableIpv6();
        }
        if (PacketClass.isOversizeControl(packetClass)) {
            rx.receivedOversizeControl();
        }
        if (PacketClass.isMalformed(packetClass)) {
            // Refused before forwarding: counted on the port it came in on.
            pool.egressPort(handle, -1);
            trafficManager.drop(handle, PacketClass.dropReason(packetClass), now);
            return;
        }
        final int egress = forwarding.egressPort(pool, handle, packetClass);
        if (egress == ForwardingStage.FLOOD && trafficManager.replicates()) {
            flood(handle, packetClass, length, now);
            return;
        }
        if (egress == ForwardingStage.FILTERED && trafficManager.replicates()) {
            trafficManager.filter(handle, now);
            return;
        }
        if (egress < 0) {
            // A flood with nothing to copy it with (virtual time never floods) has no route either.
            trafficManager.drop(handle, egress == ForwardingStage.TTL_EXPIRED ? DropReason.TTL_EXPIRED : DropReason.NO_ROUTE, now);
            return;
        }
        pool.egressPort(handle, egress);
        toQueue(handle, egress, packetClass, length, now);
    }

    /**
     * To every port of the flood list but the one it came in on, each copy decided as a unicast packet is; the frame itself
     * goes last, after every copy was made of it whole. A flood to no port at all is filtered.
     */
    private void flood(final int handle, final int packetClass, final int length, final long now) {
        final int ingress = pool.ingressPort(handle);
        final int[] ports = forwarding.floodPorts(ingress);
        int last = -1;
        int flooded = 0;
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] != ingress) {
                last = i;
                flooded++;
            }
        }
        if (last < 0) {
            trafficManager.filter(handle, now);
            return;
        }
        trafficManager.flooded(handle, flooded);
        for (int i = 0; i < last; i++) {
            final int port = ports[i];
            if (port != ingress) {
                final int copy = trafficManager.replicate(handle, port);
                if (copy != PacketPool.NO_PACKET) {
                    toQueue(copy, port, packetClass, length, now);
                }
            }
        }
        pool.egressPort(handle, ports[last]);
        toQueue(handle, ports[last], packetClass, length, now);
    }

    /** The per-egress decision: priority to the header queue, trimmed there when the meters say so, else the data queue. */
    private void toQueue(final int handle, final int egress, final int packetClass, final int length, final long now) {
        if (PacketClass.isPriority(packetClass)) {
            trafficManager.enqueueHeader(handle, now);
        } else if (meters != null && PacketClass.isTrimmable(packetClass)
            && meters.shouldTrim(egress, trimStates.state(egress, now), length, now)) {
            trafficManager.trim(handle, TrimKind.INGRESS);
            trafficManager.enqueueHeader(handle, now);
        } else {
            trafficManager.enqueueData(handle, now);
        }
    }

    /** Null for mechanisms with no ingress meters. */
    public IngressMeters meters() {
        return meters;
    }

    /** A congestion NOTIFY for {@code egressPort} reached this pipeline. */
    public void onCongestionNotify(final int egressPort, final long now) {
        trimStates.onNotify(egressPort, now);
    }

    /** A congestion NOTIFY for {@code egressPort} whose deflected packet waited {@code agePicos} in its DoD queue. */
    public void onCongestionNotify(final int egressPort, final long agePicos, final long now) {
        trimStates.onNotify(egressPort, agePicos, now);
    }

    public int id() {
        return id;
    }

    public TrimStateTable trimStates() {
        return trimStates;
    }

    public void reset() {
        trimStates.reset();
        if (meters != null) {
            meters.reset();
        }
    }
}
