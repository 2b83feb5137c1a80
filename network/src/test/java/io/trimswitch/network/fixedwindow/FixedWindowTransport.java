package io.trimswitch.network.fixedwindow;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.HostLinks;
import io.trimswitch.simulator.FlowPlan;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.TransportRun;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.switching.source.Pattern;
import io.trimswitch.dataplane.time.LinkRate;

import java.util.Map;

/**
 * A third transport, as small as one can be: a fixed window of packets in flight per flow, a new one sent per ACK, a
 * packet sent again on the NACK of its trimmed header. It exists to show what a transport takes: this class, its
 * hosts, one line in META-INF/services, and nothing outside its folder.
 */
public final class FixedWindowTransport implements Transport {
    /** Packets a flow keeps in flight. */
    record Window(int packets) implements TransportSettings {
        Window {
            if (packets < 1 || packets > 4096) {
                throw new ConfigException("fixed-window.window must be 1..4096 packets, got " + packets);
            }
        }
    }

    /** What the report says of the run: the window, and packets sent again. */
    public record Section(int window, long retransmissions) {
    }

    @Override
    public String name() {
        return "fixed-window";
    }

    @Override
    public Window settings(final Map<String, Object> block) {
        for (final Map.Entry<String, Object> entry : block.entrySet()) {
            if (!entry.getKey().equals("window") || !(entry.getValue() instanceof Integer)) {
                throw new ConfigException("fixed-window takes one setting, window (packets), got " + entry.getKey() + "=" + entry.getValue());
            }
        }
        return new Window((Integer) block.getOrDefault("window", 8));
    }

    @Override
    public TransportRun loneSwitch(final Settings settings, final TransportSettings own) {
        final FlowPlan plan = new FlowPlan(settings, Pattern.of(settings), new LinkRate(settings.portRateBps()).serialisation(
            settings.workload().packetBytes()));
        return run(new FixedWindowHosts(plan, new HostLinks(settings, plan), ((Window) own).packets()));
    }

    @Override
    public TransportRun fabric(final Fabric fabric, final TransportSettings own) {
        final Fabric.Flows flows = fabric.flows();
        final FlowPlan plan = new FlowPlan(flows.sender(), flows.receiver(), flows.start(), flows.size(), 1, flows.description());
        return run(new FixedWindowHosts(plan, new HostLinks(fabric.hostSettings(), plan, fabric.hosts(), false, fabric.spraying()),
            ((Window) own).packets()));
    }

    private static TransportRun run(final FixedWindowHosts hosts) {
        return new TransportRun.Parts(hosts, hosts.window(), null, engine -> {
            long resent = 0;
            for (int flow = 0; flow < hosts.flows(); flow++) {
                resent += hosts.retransmissions(flow);
            }
            return new Section(hosts.window(), resent);
        });
    }
}
