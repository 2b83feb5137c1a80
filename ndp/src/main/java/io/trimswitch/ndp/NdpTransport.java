package io.trimswitch.ndp;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.TransportRun;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.switching.source.Pattern;

import java.util.Map;

/**
 * NDP as a transport, reached by name as every other one is: its hosts on a lone switch's ports or on a fabric's
 * links. Its settings are the switch settings' transport block (window, RTO, flow sizes), so its own block is empty.
 * Its hosts live beside its state machines, which the live hosts ({@code hosts}) run on sockets too.
 */
public final class NdpTransport implements Transport {
    /** On htsim's fabrics, as htsim_ndp's, receivers pull at 99 % of their link's rate, so that pulls never queue behind the data they clock. */
    private static final double HTSIM_PULL_RATE = 0.99;
    /** and their pacers keep a queue of pulls per flow and serve the flows in turn, whatever their round trips. */
    private static final PullPacer.Order HTSIM_PULL_ORDER = PullPacer.Order.ROUND_ROBIN;
    private static final TransportSettings NONE = new TransportSettings() {
    };

    @Override
    public String name() {
        return "ndp";
    }

    @Override
    public TransportSettings settings(final Map<String, Object> block) {
        if (!block.isEmpty()) {
            throw new ConfigException("ndp has no settings of its own (its window, RTO and flow sizes are transport.initialWindowPackets, rtoUs and flowSizes), not "
                + block.keySet());
        }
        return NONE;
    }

    @Override
    public TransportRun loneSwitch(final Settings settings, final TransportSettings own) {
        return new TransportRun.Parts(NdpHosts.forPattern(settings, Pattern.of(settings)), settings.transport().initialWindowPackets(), null, null);
    }

    @Override
    public TransportRun fabric(final Fabric fabric, final TransportSettings own) {
        final Fabric.Flows flows = fabric.flows();
        final NdpHosts hosts = NdpHosts.onLinks(fabric.hostSettings(), fabric.hosts(), flows.sender(), flows.receiver(), flows.start(),
            flows.size(), flows.description(), fabric.spraying(), fabric.htsimHosts() ? HTSIM_PULL_RATE : 1,
            fabric.htsimHosts() ? HTSIM_PULL_ORDER : PullPacer.Order.ARRIVAL);
        return new TransportRun.Parts(hosts, fabric.hostSettings().transport().initialWindowPackets(), null, null);
    }
}
