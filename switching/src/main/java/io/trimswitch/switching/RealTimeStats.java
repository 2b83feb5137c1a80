package io.trimswitch.switching;

/**
 * How a real-time run went on its host. {@code maxIngressLagNs} (switch time) is how late, at worst, a
 * packet reached its pipeline after the moment it was due: near zero when the host sustained the dilation.
 * {@code lostNotifies}: NOTIFYs that found a pipeline's inbox full (0 unless a pipeline's thread stalled).
 */
public record RealTimeStats(
    double dilation, String placement, String idle, int threads, double wallMs, double maxIngressLagNs, long lostNotifies) {
}
