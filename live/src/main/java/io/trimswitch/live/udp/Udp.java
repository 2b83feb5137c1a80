package io.trimswitch.live.udp;

import io.trimswitch.config.Settings;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.sockets.KernelSocketDrops;
import io.trimswitch.sockets.VxlanPorts;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code udp} kind: a port on a UDP socket that carries its frames in VXLAN (RFC 7348), as a Linux host's vxlan
 * interface sends them ({@link UdpPortKind}, over {@code sockets}' {@link VxlanPorts}). Its settings: a port's
 * {@code bind}, {@code remote}, {@code remotePort} and {@code vni} ({@link UdpSettings}), and {@code realtime.udpGso}.
 */
public final class Udp implements LivePortKind {
    @Override
    public String name() {
        return UDP;
    }

    @Override
    public int[] ports(final Settings settings) {
        return UdpSettings.endpoints(settings).stream().mapToInt(VxlanPorts.Endpoint::port).toArray();
    }

    @Override
    public KernelDrops kernelDrops(final Settings settings) {
        if (ports(settings).length == 0) {
            return null;
        }
        final KernelSocketDrops table = KernelSocketDrops.open();
        return new KernelDrops() {
            @Override
            public void refresh() {
                table.refresh();
            }

            @Override
            public long drops(final int localPort) {
                return table.drops(localPort);
            }

            @Override
            public void close() {
                table.close();
            }
        };
    }

    @Override
    public ShardPorts open(final Settings settings, final int[] own, final Context context) {
        final Map<Integer, VxlanPorts.Endpoint> byPort = new HashMap<>();
        UdpSettings.endpoints(settings).forEach(endpoint -> byPort.put(endpoint.port(), endpoint));
        return new UdpPortKind(Arrays.stream(own).mapToObj(byPort::get).toList(), settings.realtime().udpGso(), context);
    }
}
