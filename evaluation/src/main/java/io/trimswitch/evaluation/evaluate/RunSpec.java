package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.network.NetworkSettings;

/**
 * One run an experiment needs: its settings, a file-friendly id, and whether to keep header arrival
 * times in its JSON (they are large) and to record a timeline. A network's run has the network's settings instead
 * of a switch's, an htsim experiment's run its experiment and hosts.
 */
public record RunSpec(String id, Settings settings, boolean keepArrivals, boolean timeline, NetworkSettings network, HtsimRun htsim) {
    /** A lone switch's run. */
    public RunSpec(final String id, final Settings settings, final boolean keepArrivals, final boolean timeline) {
        this(id, settings, keepArrivals, timeline, null, null);
    }

    /** A network's run. */
    public static RunSpec network(final String id, final NetworkSettings network) {
        return new RunSpec(id, null, false, false, network, null);
    }

    /** An htsim experiment's run (a fat tree and its flows), with NDP or UET hosts. */
    public static RunSpec htsim(final String id, final HtsimRun htsim) {
        return new RunSpec(id, null, false, false, null, htsim);
    }

    /** What the run is made of, as its plan's fingerprint reads it. */
    Object made() {
        return htsim != null ? htsim : network != null ? network : settings;
    }

    /** Default settings with a transport, pattern, mechanism and packet count set. */
    public static Settings settings(final TransportKind transport, final String pattern, final Mechanism mechanism, final int packets) {
        return Settings.DEFAULTS.withTransport(t -> t.withKind(transport)).withWorkload(w -> w.withPattern(pattern).withPackets(packets))
            .withMechanism(mechanism);
    }

    /** A name usable in file names: {@code incast:64->4} becomes {@code incast-64-4}. */
    public static String slug(final String text) {
        return text.replaceAll("[^A-Za-z0-9.]+", "-").replaceAll("(^-|-$)", "");
    }
}
