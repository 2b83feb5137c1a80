package io.trimswitch.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The switch-wide trimming mechanism (ideal, mod, dod, tofino, tofino2). */
public enum Mechanism implements Choice {
    /** Output-queued trimming at TM enqueue: the reference. */
    IDEAL,
    /** Mirror-on-drop: the header is mirrored through a mirror port; no ingress meters. */
    MOD,
    /** Optimistic ingress meters plus deflect-on-drop, no congestion signal. */
    DOD,
    /** The full design: three trim states, DoD, congestion signal to the pipelines. */
    TOFINO,
    /**
     * Tofino 2: ingress reads the egress queue's depth, stale by the packets in its later stages, and trims at a
     * threshold; DoD catches what slips through, one recirculation port per eight ports.
     */
    TOFINO2;

    public static Mechanism parse(final String text) {
        for (final Mechanism mechanism : values()) {
            if (mechanism.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return mechanism;
            }
        }
        throw new ConfigException("unknown mechanism '" + text + "': expected one of " + labels());
    }

    public static String labels() {
        return Arrays.stream(values()).map(Mechanism::label).collect(Collectors.joining(", "));
    }

    public boolean hasIngressMeters() {
        return this == DOD || this == TOFINO;
    }

    /** Ingress trims on the egress queue's depth as it reads it (Tofino 2). */
    public boolean readsQueueDepth() {
        return this == TOFINO2;
    }

    public boolean raisesSignals() {
        return this == TOFINO;
    }
}
