package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The switch-wide trimming mechanism, as the settings name it, with the facts about it that settings need: how its
 * recirculation ports are laid out over the switch's ports, and which clocks and control loops it runs with. What it
 * builds into the switch (overflow handling, meters, congestion signals) is the switch assembly's factory of the same
 * name; a mechanism outside the built-in ones is known once registered there.
 */
public final class Mechanism implements Choice {
    private static final Map<String, Mechanism> BY_LABEL = new LinkedHashMap<>();

    /** Output-queued trimming at TM enqueue: the reference. */
    public static final Mechanism IDEAL = builtIn(new Mechanism("ideal", "Output-queued trimming at TM enqueue: the reference",
        0, "mechanism ideal is the output-queued reference and runs only with clock virtual", false));
    /** Mirror-on-drop: the header is mirrored through a mirror port; no ingress meters. */
    public static final Mechanism MOD = builtIn(new Mechanism("mod", "Mirror-on-drop: a dropped packet's header goes out through a mirror port",
        0, null, false));
    /** Optimistic ingress meters plus deflect-on-drop, no congestion signal. */
    public static final Mechanism DOD = builtIn(new Mechanism("dod", "Optimistic ingress meters plus deflect-on-drop, no congestion signal",
        0, null, false));
    /** The full design: three trim states, DoD, congestion signal to the pipelines. */
    public static final Mechanism TOFINO = builtIn(new Mechanism("tofino",
        "Three trim states, deflect-on-drop and a congestion signal (NOTIFY) to the pipelines", 0, null, true));
    /**
     * Tofino 2: ingress reads the egress queue's depth, stale by the packets in its later stages, and trims at a
     * threshold; DoD catches what slips through, one recirculation port per eight ports.
     */
    public static final Mechanism TOFINO2 = builtIn(new Mechanism("tofino2",
        "Ingress trims on the egress queue's depth it reads; deflect-on-drop, one recirculation port per eight ports",
        8, "mechanism tofino2 runs only with clock virtual", false));

    private final String label;
    private final String description;
    private final int portsPerRecirculationPort;
    private final String virtualOnly;
    private final boolean drivesNotifyLoop;

    /**
     * @param portsPerRecirculationPort the ports one recirculation port takes the deflections of; 0: a pipeline's ports
     * @param virtualOnly               why the mechanism runs only with clock virtual, the one-line refusal; null: both clocks
     * @param drivesNotifyLoop          whether its NOTIFYs drive a trim control loop ({@code control.loop backlog})
     */
    public Mechanism(final String label, final String description, final int portsPerRecirculationPort, final String virtualOnly,
        final boolean drivesNotifyLoop) {
        if (label == null || !label.equals(label.trim().toLowerCase(Locale.ROOT)) || label.isEmpty() || portsPerRecirculationPort < 0) {
            throw new IllegalArgumentException("a mechanism needs a lower-case label and ports per recirculation port >= 0, got '" + label
                + "', " + portsPerRecirculationPort);
        }
        this.label = label;
        this.description = description;
        this.portsPerRecirculationPort = portsPerRecirculationPort;
        this.virtualOnly = virtualOnly;
        this.drivesNotifyLoop = drivesNotifyLoop;
    }

    private static Mechanism builtIn(final Mechanism mechanism) {
        BY_LABEL.put(mechanism.label, mechanism);
        return mechanism;
    }

    /**
     * Makes {@code mechanism} known by its label to settings files and command lines; the label of one already known
     * names that one and is refused.
     */
    public static synchronized Mechanism register(final Mechanism mechanism) {
        final Mechanism known = BY_LABEL.putIfAbsent(mechanism.label, mechanism);
        if (known != null && known != mechanism) {
            throw new IllegalArgumentException("a mechanism named " + mechanism.label + " is known already");
        }
        return mechanism;
    }

    public static synchronized Mechanism parse(final String text) {
        final Mechanism mechanism = BY_LABEL.get(text.trim().toLowerCase(Locale.ROOT));
        if (mechanism == null) {
            throw new ConfigException("unknown mechanism '" + text + "': expected one of " + labels());
        }
        return mechanism;
    }

    public static String labels() {
        return labels(", ");
    }

    /** The labels of every mechanism known, as a command's help lists them. */
    public static synchronized String labels(final String separator) {
        return String.join(separator, BY_LABEL.keySet());
    }

    /** Every mechanism known, the built-in ones first. */
    public static synchronized Mechanism[] values() {
        return BY_LABEL.values().toArray(Mechanism[]::new);
    }

    @JsonValue
    @Override
    public String label() {
        return label;
    }

    /** The label as a constant's name, for {@link Choice}. */
    @Override
    public String name() {
        return label.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** One line on what the mechanism does. */
    public String description() {
        return description;
    }

    /** The ports one recirculation port takes the deflections of: a pipeline's, unless the mechanism lays them out its own way. */
    public int portsPerRecirculationPort(final int portsPerPipeline) {
        return portsPerRecirculationPort == 0 ? portsPerPipeline : portsPerRecirculationPort;
    }

    /** The recirculation ports a switch of {@code portCount} ports has: one per {@link #portsPerRecirculationPort} of them. */
    public int recirculationPorts(final int portCount, final int portsPerPipeline) {
        final int each = portsPerRecirculationPort(portsPerPipeline);
        return (portCount + each - 1) / each;
    }

    /** Why it runs only with clock virtual, as the one-line refusal; null when it runs with both clocks. */
    public String virtualOnly() {
        return virtualOnly;
    }

    /** Whether its NOTIFYs drive a trim control loop, the one {@code control.loop backlog} reads. */
    public boolean drivesNotifyLoop() {
        return drivesNotifyLoop;
    }

    @Override
    public String toString() {
        return label;
    }
}
