package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A traffic manager of 2 pipelines × 4 ports with an observable runtime, for tests. */
final class TestSwitch implements TrafficManagerEvents {
    static final int PIPELINES = 2;
    static final int PORTS_PER_PIPELINE = 4;
    final PacketPool pool = new PacketPool(4096);
    final TrimSettings trimSettings = TrimSettings.defaults();
    final TrafficManager tm;
    final Map<DropReason, Integer> drops = new EnumMap<>(DropReason.class);
    final List<Integer> egressWakeups = new ArrayList<>();
    final List<Integer> recirculationWakeups = new ArrayList<>();

    TestSwitch(final DataQueueOverflow overflow, final boolean returnToSender, final int dataQueue, final int headerQueue) {
        final EgressPort[] ports = new EgressPort[PIPELINES * PORTS_PER_PIPELINE];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = new EgressPort(port, LinkRate.gbps(100), pool, dataQueue, headerQueue, 10);
        }
        tm = new TrafficManager(pool, ports, trimSettings, returnToSender, overflow, this);
    }

    /** A 1500-byte data frame from port {@code from} to port {@code to}, parsed as ingress would. */
    int packet(final int from, final int to, final int dscp) {
        final int handle = pool.allocate();
        WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), 1500, from, to, from, 0, dscp, 666);
        if (dscp != 10) {
            // make it plain UDP so only the DSCP decides
            pool.buffer(handle).putShort(pool.offset(handle) + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + 2,
                (short) 5000, java.nio.ByteOrder.BIG_ENDIAN);
        }
        pool.length(handle, 1500);
        pool.ingressPort(handle, from);
        pool.egressPort(handle, to);
        pool.classification(handle, PacketClass.classify(pool.buffer(handle), pool.offset(handle), 1500, trimSettings));
        return handle;
    }

    int trimmable(final int from, final int to) {
        return packet(from, to, 10);
    }

    int drops(final DropReason reason) {
        return drops.getOrDefault(reason, 0);
    }

    @Override
    public void drop(final int handle, final DropReason reason, final long now) {
        drops.merge(reason, 1, Integer::sum);
        pool.free(handle);
    }

    @Override
    public void egressPending(final int port, final long now) {
        egressWakeups.add(port);
    }

    @Override
    public void recirculationPending(final int pipeline, final long now) {
        recirculationWakeups.add(pipeline);
    }
}
