package io.trimswitch.uet;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.TransportRun;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.switching.source.Pattern;

import java.util.List;
import java.util.Map;

/**
 * Ultra Ethernet as a transport: NSCC senders, SACK/NACK receivers, RCCC's pull pacers and the load balancers, on a
 * lone switch's ports or a fabric's links; switches that serve headers strictly before data and tell a last-hop trim
 * from an earlier one; the "uet" section of a fabric's report.
 */
public final class UetTransport implements Transport {
    /** The settings of the block, in the order they are applied (and so checked). */
    private static final List<String> KEYS = List.of("loadBalancer", "entropies", "targetDelayUs", "initialWindowPackets", "rtoUs",
        "connectionReuse", "cc", "oversubscribedCc", "ackBytes", "ecn");

    @Override
    public String name() {
        return "uet";
    }

    @Override
    public UetSettings settings(final Map<String, Object> block) {
        for (final String key : block.keySet()) {
            if (!KEYS.contains(key)) {
                throw new ConfigException("uet." + key + " is not a UET setting; they are " + String.join(", ", KEYS));
            }
        }
        UetSettings s = UetSettings.DEFAULTS;
        for (final String key : KEYS) {
            final Object value = block.get(key);
            if (value != null) {
                s = with(s, key, value);
            }
        }
        return s;
    }

    private static UetSettings with(final UetSettings s, final String key, final Object value) {
        return switch (key) {
            case "loadBalancer" -> s.withLoadBalancer(UetSettings.loadBalancer(value.toString()));
            case "entropies" -> s.withEntropies(whole(key, value));
            case "targetDelayUs" -> s.withTargetDelayUs(number(key, value));
            case "initialWindowPackets" -> s.withInitialWindowPackets(whole(key, value));
            case "rtoUs" -> s.withRtoUs(number(key, value));
            case "connectionReuse" -> s.withConnectionReuse(flag(key, value));
            case "cc" -> s.withCc(UetSettings.cc(value.toString()));
            case "oversubscribedCc" -> s.withOversubscribedCc(UetSettings.oversubscribedCc(value.toString()));
            case "ackBytes" -> s.withAckBytes(whole(key, value));
            default -> {
                // ecn: LO and HI once; given twice, the second pair would silently not count.
                if (!(value instanceof List<?> depths) || depths.size() != 2) {
                    throw new ConfigException("uet.ecn (--ecn) takes LO HI once, got " + (value instanceof List<?> l ? l.size() / 2 : 0) + " pairs");
                }
                yield s.withEcn(whole(key, depths.get(0)), whole(key, depths.get(1)));
            }
        };
    }

    private static int whole(final String key, final Object value) {
        if (!(value instanceof Integer n)) {
            throw new ConfigException("uet." + key + " must be a whole number, got " + value);
        }
        return n;
    }

    private static double number(final String key, final Object value) {
        if (!(value instanceof Number n)) {
            throw new ConfigException("uet." + key + " must be a number, got " + value);
        }
        return n.doubleValue();
    }

    private static boolean flag(final String key, final Object value) {
        if (!(value instanceof Boolean b)) {
            throw new ConfigException("uet." + key + " must be true or false, got " + value);
        }
        return b;
    }

    @Override
    public TransportRun loneSwitch(final Settings settings, final TransportSettings own) {
        final LoneSwitchUet derived = LoneSwitchUet.of(settings, (UetSettings) own);
        final UetHosts hosts = derived.hosts(settings, Pattern.of(settings));
        return new TransportRun.Parts(hosts, 0, engine -> derived.mark(engine.node(0).assembly(), settings), null);
    }

    @Override
    public TransportRun fabric(final Fabric fabric, final TransportSettings own) {
        return UetFabricRun.of(fabric, (UetSettings) own);
    }

    @Override
    public Settings switchSettings(final Settings plain, final int hostPorts, final TransportSettings own) {
        return UetNetwork.marked(plain, hostPorts, plain.egressPorts());
    }

    @Override
    public Integer defaultQueuePackets(final Fabric.Numbers numbers, final boolean wholePackets) {
        return UetNetwork.defaultQueuePackets(numbers, wholePackets);
    }
}
