package io.trimswitch.switching.record;

/**
 * How a real-time run went on its host. {@code maxIngressLagNs} (switch time) is how late, at worst, a
 * packet reached its pipeline after the moment it was due: near zero when the host sustained the dilation.
 * {@code lostNotifies}: NOTIFYs that found a pipeline's inbox full (0 unless a pipeline's thread stalled).
 * {@code maxTurnGapNs} (switch time): the longest any shard's thread went without a turn, its host's preemptions and
 * pauses seen through the dilation; a lag above a few hundred nanoseconds is usually one of these.
 */
public record RealTimeStats(
    double dilation, String placement, String idle, int threads, double wallMs, double maxIngressLagNs, long lostNotifies,
    double maxTurnGapNs) {
}
