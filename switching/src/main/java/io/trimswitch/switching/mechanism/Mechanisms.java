package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;

import java.util.LinkedHashMap;
import java.util.Map;

/** The mechanisms the switch can be assembled with, by name: the built-in ones, and any registered beside them. */
public final class Mechanisms {
    private static final Map<Mechanism, SwitchMechanism> KNOWN = new LinkedHashMap<>();

    static {
        register(new IdealMechanism());
        register(new MirrorOnDropMechanism());
        register(new DeflectOnDropMechanism(Mechanism.DOD, false));
        register(new DeflectOnDropMechanism(Mechanism.TOFINO, true));
        register(new QueueDepthMechanism());
    }

    private Mechanisms() {
    }

    /** Makes {@code mechanism} known by its name, to settings files and command lines as well. */
    public static synchronized void register(final SwitchMechanism mechanism) {
        Mechanism.register(mechanism.mechanism());
        KNOWN.put(mechanism.mechanism(), mechanism);
    }

    /** What {@code mechanism} builds into the switch. */
    public static synchronized SwitchMechanism of(final Mechanism mechanism) {
        final SwitchMechanism known = KNOWN.get(mechanism);
        if (known == null) {
            throw new IllegalArgumentException("mechanism " + mechanism.label() + " has no parts registered");
        }
        return known;
    }
}
