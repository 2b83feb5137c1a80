package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.config.SettingsChoices.HostLayout;
import io.trimswitch.config.SettingsChoices.TransportKind;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The blocks of {@link Settings} that describe the traffic offered: the workload and its senders' transport. Reached as
 * {@code Settings.Workload} and the like, since {@link Settings} implements this.
 */
public interface TrafficSettings {
    /** The traffic offered: a named pattern of senders, read on the fabric's ports where the traffic is made. */
    @JsonPropertyOrder({"pattern", "packets", "packetBytes", "durationUs", "startJitter", "seed"})
    @SettingsBlock
    public record Workload(String pattern, int packets, int packetBytes, double durationUs, boolean startJitter, long seed) implements WorkloadBuilder.With {
        public static final Workload DEFAULTS = new Workload("shift", 1000, 1500, 500, true, 1);
    }

    /**
     * How the workload's senders behave; a null flowSizes: every flow is workload.packets long. {@code settings} is the
     * transport's own block, kept raw: the transport named by {@code kind} reads it, and refuses what it does not know.
     */
    @JsonPropertyOrder({"kind", "initialWindowPackets", "hosts", "propagationNs", "rtoUs", "maxDurationUs", "flowSizes",
        "backgroundLoad", "backgroundUs", "settings"})
    @SettingsBlock
    public record Transport(TransportKind kind, int initialWindowPackets, HostLayout hosts, double propagationNs, double rtoUs,
        double maxDurationUs, @JsonSetter(nulls = Nulls.SET) String flowSizes, double backgroundLoad, double backgroundUs,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Object> settings) implements TransportBuilder.With {
        public static final Transport DEFAULTS = new Transport(TransportKind.NDP, 1000, HostLayout.SEPARATE, 1000, 200, 100_000, null, 0, 500,
            Map.of());

        public Transport {
            // Kept as read, in its order (a null value stays, for the transport to refuse), and unchangeable.
            settings = settings == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }
}
