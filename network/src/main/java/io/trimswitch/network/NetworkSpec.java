package io.trimswitch.network;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.config.Settings;

import java.util.ArrayList;
import java.util.List;

/**
 * A network of switches as its YAML file spells it: the topology, how paths are chosen, the leaves' and the spines'
 * switch settings, the workload across racks and the NDP hosts. Defaults: 4 leaves of 4 hosts, 4 spines, 100 Gb/s
 * everywhere, tofino leaves and ideal spines, packets sprayed. {@link NetworkSettings#of} checks it.
 */
@JsonPropertyOrder({"topology", "routing", "leaf", "spine", "workload", "transport"})
public final class NetworkSpec {
    public Topology topology = new Topology();
    /** spray: each packet on a path its sender chose (NDP) | ecmp: each flow on the path its 5-tuple hashes to. */
    public String routing = "spray";
    /** Every leaf (top-of-rack) switch: any switch setting of the mechanism, its pipelines, queues, trim and loop. */
    public SwitchPart leaf = SwitchPart.of("tofino");
    /** Every spine switch. */
    public SwitchPart spine = SwitchPart.of("ideal");
    public Workload workload = new Workload();
    public Transport transport = new Transport();

    @JsonPropertyOrder({"leaves", "spines", "hostsPerLeaf", "hostRateGbps", "uplinkRateGbps", "linkLatencyNs", "failedLinks",
        "failureDetectionUs"})
    public static final class Topology {
        public int leaves = 4;
        /** 0: a single switch with every host on it. */
        public int spines = 4;
        public int hostsPerLeaf = 4;
        public double hostRateGbps = 100;
        /** Leaf-to-spine links; slower than hostsPerLeaf × hostRateGbps / spines makes the fabric oversubscribed. */
        public double uplinkRateGbps = 100;
        /** One-way delay of every link, host links included. */
        public double linkLatencyNs = 1000;
        /**
         * Links that fail, as {leaf, spine, atUs}: down from the start (atUs 0) or from atUs on. What is on a link or
         * sent onto it while it is down is lost; once the failure is detected, routing and the senders' path choice
         * leave the link out.
         */
        public List<LinkEnd> failedLinks = new ArrayList<>();
        /** How long after a link fails the leaves, the spines and the senders stop using it (a failure at 0 is known). */
        public double failureDetectionUs = 10;
    }

    @JsonPropertyOrder({"leaf", "spine", "atUs"})
    public static final class LinkEnd {
        public int leaf;
        public int spine;
        /** When the link fails; 0: it is down for the whole run. */
        public double atUs;
    }

    /**
     * One tier's switches: the switch settings that make sense inside a network. Ports, their number and their rate
     * come from the topology.
     */
    @JsonPropertyOrder({"mechanism", "fabric", "qos", "recirculation", "trim", "control"})
    public static final class SwitchPart {
        /** ideal | mod | dod | tofino | tofino2 */
        public String mechanism = "tofino";
        public Fabric fabric = new Fabric();
        public Settings.Qos qos = Settings.Qos.DEFAULTS;
        public Settings.Recirculation recirculation = Settings.Recirculation.DEFAULTS;
        public Settings.Trim trim = Settings.Trim.DEFAULTS;
        public Settings.Control control = Settings.Control.DEFAULTS;

        static SwitchPart of(final String mechanism) {
            final SwitchPart part = new SwitchPart();
            part.mechanism = mechanism;
            return part;
        }
    }

    /** A switch's pipelines and queues, with a lone switch's defaults; its ports are the topology's. */
    @JsonPropertyOrder({"pipelines", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    public static final class Fabric {
        private static final Settings.Fabric DEFAULTS = Settings.Fabric.DEFAULTS;

        /** The switch's ports are split evenly over its pipelines (the last pipeline may have spare ports). */
        public int pipelines = DEFAULTS.pipelines();
        public int dataQueuePackets = DEFAULTS.dataQueuePackets();
        public int headerQueuePackets = DEFAULTS.headerQueuePackets();
        public int headersPerData = DEFAULTS.headersPerData();
    }

    @JsonPropertyOrder({"kind", "packets", "packetBytes", "racks", "sendersPerRack", "load", "flowSizes", "durationUs",
        "startJitter", "seed"})
    public static final class Workload {
        /**
         * permutation: every host sends one flow to a host in another rack and receives one | incast: hosts of
         * {@code racks} racks send to the first host of rack 0 | all-to-all: every host to every other | flows: Poisson
         * arrivals at {@code load} of each host's rate, sizes from {@code flowSizes}, to hosts in other racks.
         */
        public String kind = "permutation";
        /** Packets per flow (flows: when no flowSizes file is given). */
        public int packets = 1000;
        public int packetBytes = 1500;
        /** incast: racks that send (rack 0 receives). */
        public int racks = 3;
        /** incast: senders in each sending rack; 0 means all its hosts. */
        public int sendersPerRack = 0;
        /** flows: the load each host offers, a fraction of its link's rate. */
        public double load = 0.5;
        /** flows: a CSV of flow sizes in packets, one per line, drawn per flow (seeded); null: workload.packets. */
        @JsonSetter(nulls = Nulls.SET)
        public String flowSizes;
        /** flows: arrivals during the first this-many microseconds. */
        public double durationUs = 100;
        /** Start each flow of permutation, incast and all-to-all at a seeded random offset within one packet time. */
        public boolean startJitter = true;
        public long seed = 1;
    }

    /** The NDP hosts. */
    @JsonPropertyOrder({"initialWindowPackets", "rtoUs", "maxDurationUs"})
    public static final class Transport {
        /**
         * Packets a sender sends at line rate before it waits for pulls; null: one round trip's worth across the spines
         * (store and forward at every hop), so that pulls keep a lone flow at line rate.
         */
        @JsonSetter(nulls = Nulls.SET)
        public Integer initialWindowPackets;
        public double rtoUs = 200;
        /** The run ends when every flow has completed, or after this long. */
        public double maxDurationUs = 100_000;
    }
}
