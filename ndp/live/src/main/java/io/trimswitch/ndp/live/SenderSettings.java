package io.trimswitch.ndp.live;

import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * A live sender's settings: its receiver, its flows' sizes in bytes (all start at once), its link's rate, the paths it
 * sprays over (source ports), its initial window, RTO, how long it waits for a silent receiver, its packets' payload,
 * their DSCP, and how long it sends new data (0: until its flows are sent); checked when made.
 */
public record SenderSettings(
    InetSocketAddress receiver, long[] flowBytes, double rateGbps, int paths, int windowPackets, long rtoNanos, long silenceNanos,
    int payloadBytes, int dscp, long durationNanos) {
    /** Data bytes per packet: with the 22-byte shim and tag, UDP and IPv4, 1448 bytes, inside vxlan's 1450-byte MTU. */
    public static final int DEFAULT_PAYLOAD = 1398;
    /** The most data bytes per packet: with shim and tag, UDP and IPv4, a 9000-byte IP packet, a jumbo MTU's. */
    public static final int MAX_PAYLOAD = 9000 - 20 - 8 - HostDatagram.HEADER_LENGTH;
    /** Data bytes in a 1500-byte IP packet, a standard MTU's. */
    public static final int STANDARD_MTU_PAYLOAD = 1500 - 20 - 8 - HostDatagram.HEADER_LENGTH;
    /** The trimmable DSCP of the project's defaults (Ultra Ethernet's DSCP_TRIMMABLE). */
    public static final int TRIMMABLE_DSCP = 10;
    /** Packets a sender may have in all its flows: a byte of state each. */
    public static final long MAX_PACKETS = 256L << 20;

    public SenderSettings {
        flowBytes = flowBytes.clone();
        if (flowBytes.length == 0 || flowBytes.length > HostDatagram.MAX_FLOWS) {
            throw new IllegalArgumentException("a sender has 1.." + HostDatagram.MAX_FLOWS + " flows, got " + flowBytes.length);
        }
        if (payloadBytes < 1 || payloadBytes > MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload must be 1.." + MAX_PAYLOAD + " bytes (a 9000-byte MTU), got " + payloadBytes);
        }
        long packets = 0;
        for (int flow = 0; flow < flowBytes.length; flow++) {
            if (flowBytes[flow] < 1) {
                throw new IllegalArgumentException("flow " + flow + ": a flow's size must be at least 1 byte, got " + flowBytes[flow]);
            }
            packets += (flowBytes[flow] + payloadBytes - 1) / payloadBytes;
            if (packets > MAX_PACKETS) {
                throw new IllegalArgumentException("the flows need more than " + MAX_PACKETS + " packets in all (" + MAX_PACKETS * payloadBytes
                    + " bytes); send less");
            }
        }
        if (!(rateGbps > 0 && rateGbps <= 400)) {
            throw new IllegalArgumentException("the rate must be above 0 and at most 400 Gb/s, got " + rateGbps);
        }
        if (paths < 1 || paths > 256) {
            throw new IllegalArgumentException("spray over 1..256 paths, got " + paths);
        }
        if (windowPackets < 1) {
            throw new IllegalArgumentException("the initial window must be at least 1 packet, got " + windowPackets);
        }
        if (rtoNanos < 1 || silenceNanos < 1) {
            throw new IllegalArgumentException("the RTO and the silence limit must be positive");
        }
        if (dscp < 0 || dscp > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + dscp);
        }
        if (durationNanos < 0) {
            throw new IllegalArgumentException("the duration must not be negative, got " + durationNanos + " ns");
        }
    }

    @Override
    public long[] flowBytes() {
        return flowBytes.clone();
    }

    public int flows() {
        return flowBytes.length;
    }

    /** Packets of {@code flow}: its bytes in payloads, the last one short. */
    public int packets(final int flow) {
        return (int) ((flowBytes[flow] + payloadBytes - 1) / payloadBytes);
    }

    /** Data bytes packet {@code sequence} of {@code flow} carries. */
    public int payload(final int flow, final int sequence) {
        return (int) Math.min(payloadBytes, flowBytes[flow] - (long) sequence * payloadBytes);
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof SenderSettings that && receiver.equals(that.receiver) && Arrays.equals(flowBytes, that.flowBytes)
            && rateGbps == that.rateGbps && paths == that.paths && windowPackets == that.windowPackets && rtoNanos == that.rtoNanos
            && silenceNanos == that.silenceNanos && payloadBytes == that.payloadBytes && dscp == that.dscp
            && durationNanos == that.durationNanos;
    }

    @Override
    public int hashCode() {
        return receiver.hashCode() * 31 + Arrays.hashCode(flowBytes);
    }

    @Override
    public String toString() {
        return "SenderSettings[" + receiver + ", " + flowBytes.length + " flows]";
    }
}
