package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.config.SettingsChoices.HostLayout;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;

import static io.trimswitch.config.SettingsValidation.MAX_QUEUE_PACKETS;
import static io.trimswitch.config.SettingsValidation.flowSizesFile;
import static io.trimswitch.config.SettingsValidation.positive;
import static io.trimswitch.config.SettingsValidation.within;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The blocks of {@link Settings} that describe the traffic offered: the workload and its senders' transport. Reached as
 * {@code Settings.Workload} and the like, since {@link Settings} implements this. Each block's {@code validate} holds its
 * rules, which {@link Settings#validate()} applies in turn.
 */
public interface TrafficSettings {
    /** The traffic offered: a named pattern of senders, read on the fabric's ports where the traffic is made. */
    @JsonPropertyOrder({"pattern", "packets", "packetBytes", "durationUs", "startJitter", "seed"})
    @SettingsBlock
    public record Workload(String pattern, int packets, int packetBytes, double durationUs, boolean startJitter, long seed) implements WorkloadBuilder.With {
        public static final Workload DEFAULTS = new Workload("shift", 1000, 1500, 500, true, 1);

        /** The frame size, checked before the switch's blocks: the meters' default bucket is derived from it. */
        void validateFrame() {
            within("workload.packetBytes", packetBytes, TrimSettings.NDP_HEADERS, PacketPool.JUMBO_FRAME_BYTES);
        }

        /** The open-loop senders' packets and run length; the pattern is read where the traffic is made, on the fabric's ports. */
        void validate() {
            within("workload.packets", packets, 1, 1_000_000);
            positive("workload.durationUs", durationUs);
            if (durationUs > 1_000_000) {
                throw new ConfigException("workload.durationUs must be at most 1000000 (one second of switch time), got " + durationUs);
            }
        }
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

        /** NDP end hosts and background traffic. */
        void validate() {
            within("transport.initialWindowPackets", initialWindowPackets, 1, MAX_QUEUE_PACKETS);
            within("transport.propagationNs", propagationNs, 0, 1e9, "ns");
            within("transport.rtoUs", rtoUs, 0.001, 1e7, "µs");
            positive("transport.maxDurationUs", maxDurationUs);
            if (maxDurationUs > 8_000_000) {
                throw new ConfigException("transport.maxDurationUs must be at most 8000000 (eight seconds of switch time), got " + maxDurationUs);
            }
            flowSizesFile("transport.flowSizes", flowSizes);
            if (!(backgroundLoad >= 0 && backgroundLoad < 1)) {
                throw new ConfigException("transport.backgroundLoad must be a fraction of line rate in [0, 1), got " + backgroundLoad);
            }
            within("transport.backgroundUs", backgroundUs, 0, maxDurationUs, "µs");
            if (backgroundLoad > 0 && !TransportKind.NDP.equals(kind) && !TransportKind.UET.equals(kind)) {
                throw new ConfigException("transport.backgroundLoad needs transport.kind ndp or uet: open-loop senders have no background flows");
            }
        }

        /** End hosts number a flow's packets in 16 bits, checked once every block is known good. */
        void validateSequenceNumbers(final Workload workload) {
            if (TransportKind.NDP.equals(kind) && workload.packets() > 65_535) {
                throw new ConfigException("workload.packets must be at most 65535 with NDP (its sequence numbers are 16 bits), got " + workload.packets());
            }
            if (TransportKind.UET.equals(kind) && workload.packets() > 65_535) {
                throw new ConfigException("workload.packets must be at most 65535 with UET (its sequence numbers travel in 16 bits here), got "
                    + workload.packets());
            }
        }
    }
}
