package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What makes a packet trimmable and what a trimmed packet looks like, in the terms operators know
 * from SONiC, Cumulus and Ultra Ethernet: a trimmable DSCP set, a remark DSCP, a trim size.
 */
public final class TrimSettings {
    /** Ethernet + IPv4 + UDP + NDP shim: a trimmed NDP packet keeps at least these. */
    public static final int NDP_HEADERS = EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + UdpHeader.LENGTH + NdpHeader.LENGTH;

    private final int sizeBytes;
    private final int trimmedDscp;
    private final long trimmableDscpMask;
    private final int ndpUdpPort;
    /** Per DSCP, the data queue its packets go to (all 0 with one data queue). */
    private final byte[] queueOfDscp;
    /** Bit q set when data queue q trims the packets that do not fit (with one data queue: queue 0 does). */
    private final int trimmingQueues;
    /** The DSCP of packets trimmed towards a fabric port (Ultra Ethernet's TRIMMED); {@link #trimmedDscp} elsewhere. */
    private final int fabricDscp;
    /** Bit p set when egress port p faces the fabric rather than a host. */
    private final long[] fabricPorts;
    /** DSCPs that are never trimmable, whatever their queue (Ultra Ethernet's NO_TRIM). */
    private final long noTrimMask;
    private final TrimOptOut[] optOuts;
    /** The data queue trimmed packets go to (SONiC's queue_index), or -1 for the header queue. */
    private final int trimmedQueue;

    /**
     * @param sizeBytes        bytes a trimmed frame keeps [64]; never fewer than its headers
     * @param trimmedDscp      DSCP a trimmed packet is remarked to [11]
     * @param trimmableDscpMask bit d set when DSCP d marks a trimmable packet [bit 10]
     * @param ndpUdpPort       UDP destination port of the NDP-style shim [666]
     */
    public TrimSettings(final int sizeBytes, final int trimmedDscp, final long trimmableDscpMask, final int ndpUdpPort) {
        this(sizeBytes, trimmedDscp, trimmableDscpMask, ndpUdpPort, new byte[64], 1);
    }

    /**
     * With traffic classes: {@code queueOfDscp} gives each DSCP's data queue, and {@code trimmingQueues} has bit q set
     * when queue q trims; {@code trimmableDscpMask} then holds the DSCPs of those queues.
     */
    public TrimSettings(final int sizeBytes, final int trimmedDscp, final long trimmableDscpMask, final int ndpUdpPort,
        final byte[] queueOfDscp, final int trimmingQueues) {
        if (queueOfDscp.length != 64) {
            throw new IllegalArgumentException("a queue for each of the 64 DSCPs, got " + queueOfDscp.length);
        }
        if (sizeBytes < NDP_HEADERS) {
            throw new IllegalArgumentException("trim size " + sizeBytes + " B is below the " + NDP_HEADERS
                + " B of Ethernet, IPv4, UDP and NDP headers a trimmed packet must keep");
        }
        if (trimmedDscp < 0 || trimmedDscp > 63) {
            throw new IllegalArgumentException("trimmed DSCP must be 0..63, got " + trimmedDscp);
        }
        if ((trimmableDscpMask >>> trimmedDscp & 1) != 0) {
            throw new IllegalArgumentException("trimmed DSCP " + trimmedDscp + " is also in the trimmable set: trimmed headers would be trimmed again");
        }
        if (ndpUdpPort <= 0 || ndpUdpPort > 65535) {
            throw new IllegalArgumentException("NDP UDP port must be 1..65535, got " + ndpUdpPort);
        }
        this.sizeBytes = sizeBytes;
        this.trimmedDscp = trimmedDscp;
        this.trimmableDscpMask = trimmableDscpMask;
        this.ndpUdpPort = ndpUdpPort;
        this.queueOfDscp = queueOfDscp.clone();
        this.trimmingQueues = trimmingQueues;
        this.fabricDscp = trimmedDscp;
        this.fabricPorts = new long[0];
        this.noTrimMask = 0;
        this.optOuts = new TrimOptOut[0];
        this.trimmedQueue = -1;
    }

    private TrimSettings(
        final TrimSettings base, final int fabricDscp, final long[] fabricPorts, final long noTrimMask, final TrimOptOut[] optOuts,
        final int trimmedQueue) {
        this.sizeBytes = base.sizeBytes;
        this.trimmedDscp = base.trimmedDscp;
        this.ndpUdpPort = base.ndpUdpPort;
        this.queueOfDscp = base.queueOfDscp;
        this.trimmingQueues = base.trimmingQueues;
        this.trimmableDscpMask = base.trimmableDscpMask & ~noTrimMask;
        this.fabricDscp = fabricDscp;
        this.fabricPorts = fabricPorts.clone();
        this.noTrimMask = noTrimMask;
        this.optOuts = optOuts.clone();
        this.trimmedQueue = trimmedQueue;
        if (fabricDscp < 0 || fabricDscp > 63) {
            throw new IllegalArgumentException("fabric trimmed DSCP must be 0..63, got " + fabricDscp);
        }
        if ((trimmableDscpMask >>> fabricDscp & 1) != 0) {
            throw new IllegalArgumentException("fabric trimmed DSCP " + fabricDscp + " is also in the trimmable set: trimmed headers would be trimmed again");
        }
    }

    /**
     * These settings with Ultra Ethernet's marks: packets trimmed towards the ports of {@code fabricPorts} (bit p for
     * port p) get {@code fabricDscp}, and packets with a DSCP of {@code noTrimMask} are never trimmable; packets
     * that match one of {@code optOuts} are not either.
     */
    public TrimSettings with(final int fabricDscp, final long[] fabricPorts, final long noTrimMask, final TrimOptOut[] optOuts) {
        return new TrimSettings(this, fabricDscp, fabricPorts, noTrimMask, optOuts, trimmedQueue);
    }

    /** These settings with trimmed packets queued in data queue {@code queue} instead of the header queue (-1). */
    public TrimSettings withTrimmedQueue(final int queue) {
        return new TrimSettings(this, fabricDscp, fabricPorts, noTrimMask, optOuts, queue);
    }

    /** The data queue trimmed packets go to, or -1: the header queue. */
    public int trimmedQueue() {
        return trimmedQueue;
    }

    /** The reproduced evaluation's settings: 64 B, DSCP 10 → 11, NDP on UDP port 666. */
    public static TrimSettings defaults() {
        return new TrimSettings(64, 11, 1L << 10, NdpHeader.DEFAULT_UDP_PORT);
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public int trimmedDscp() {
        return trimmedDscp;
    }

    /** The DSCP a packet trimmed towards {@code egressPort} is remarked to: the fabric's, or the last hop's. */
    public int trimmedDscp(final int egressPort) {
        return egressPort >= 0 && egressPort >> 6 < fabricPorts.length && (fabricPorts[egressPort >> 6] >>> egressPort & 1) != 0
            ? fabricDscp : trimmedDscp;
    }

    /** Whether {@code dscp} marks a packet trimmed already, here or at another switch. */
    public boolean isTrimmedDscp(final int dscp) {
        return dscp == trimmedDscp || dscp == fabricDscp;
    }

    /** Whether an NDP packet of {@code dscp} may be trimmed: not when its DSCP says NO_TRIM. */
    public boolean mayTrim(final int dscp) {
        return (noTrimMask >>> dscp & 1) == 0;
    }

    /** Whether the parsed packet matches a rule of the per-flow opt-out. */
    public boolean optedOut(final UnsafeBuffer buffer, final int frame, final boolean ipv4, final int protocol, final int l4, final int dscp) {
        for (final TrimOptOut rule : optOuts) {
            if (rule.matches(buffer, frame, ipv4, protocol, l4, dscp)) {
                return true;
            }
        }
        return false;
    }

    public boolean hasOptOuts() {
        return optOuts.length > 0;
    }

    public long trimmableDscpMask() {
        return trimmableDscpMask;
    }

    public boolean isTrimmableDscp(final int dscp) {
        return (trimmableDscpMask >>> dscp & 1) != 0;
    }

    public int ndpUdpPort() {
        return ndpUdpPort;
    }

    /** The data queue of packets with {@code dscp}. */
    public int queueOf(final int dscp) {
        return queueOfDscp[dscp];
    }

    /** Whether data queue {@code queue} trims the packets that do not fit, rather than dropping them. */
    public boolean trims(final int queue) {
        return (trimmingQueues >>> queue & 1) != 0;
    }
}
