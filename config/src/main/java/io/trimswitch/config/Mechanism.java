package io.trimswitch.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The switch-wide trimming mechanism (ideal, mod, dod, tofino). */
public enum Mechanism implements Choice {
    /** Output-queued trimming at TM enqueue: the reference. */
    IDEAL,
    /** Mirror-on-drop: the header is mirrored through a mirror port; no ingress meters. */
    MOD,
    /** Optimistic ingress meters plus deflect-on-drop, no congestion signal. */
    DOD,
    /** The full design: three trim states, DoD, congestion signal to the pipelines. */
    TOFINO;

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

    public boolean raisesSignals() {
        return this == TOFINO;
    }
}
