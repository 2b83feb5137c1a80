package io.trimswitch.cli;

import io.trimswitch.config.Settings;
import picocli.CommandLine.Model.OptionSpec;

/** How a run is clocked, the same for every command that runs the switch on generated or replayed traffic. */
final class ClockOptions extends OptionGroup {
    private final OptionSpec clock = option("--clock", "virtual|real", String.class,
        "virtual: deterministic discrete-event time; real: pipeline shards on threads paced by the host clock, dilated, with open-loop senders"
            + " (default: the config's, else virtual)");

    private final OptionSpec dilation = option("--dilation", "D", Double.class,
        "With --clock real: one µs of switch time takes D µs of wall time (default: 4000)");

    private final OptionSpec placement = option("--placement", "single|split|per-pipeline", String.class,
        "With --clock real: one pipeline shard, two, or one per pipeline, each on a thread of its own (default: single)");

    private final OptionSpec idle = option("--idle", "busy-spin|yield|backoff|sleep", String.class,
        "With --clock real: what a thread does when it had nothing to do (default: busy-spin)");

    /** {@code settings} with what was given over them. */
    Settings applyTo(final Settings settings) {
        return realTimeOptions(clock(settings));
    }

    /** {@code settings} with the clock given, if one was. */
    Settings clock(final Settings settings) {
        final String givenClock = clock.getValue();
        return givenClock == null ? settings : settings.withClock(Settings.choice("clock", givenClock, Settings.Clock.values()));
    }

    /** {@code settings} with the real-time runtime's options given. */
    Settings realTimeOptions(final Settings settings) {
        final Double givenDilation = dilation.getValue();
        final String givenPlacement = placement.getValue();
        final String givenIdle = idle.getValue();
        Settings s = settings;
        if (givenDilation != null) {
            s = s.withRealtime(r -> r.withDilation(givenDilation));
        }
        if (givenPlacement != null) {
            final Settings.Placement placed = Settings.choice("realtime.placement", givenPlacement, Settings.Placement.values());
            s = s.withRealtime(r -> r.withPlacement(placed));
        }
        if (givenIdle != null) {
            final Settings.Idle waiting = Settings.choice("realtime.idle", givenIdle, Settings.Idle.values());
            s = s.withRealtime(r -> r.withIdle(waiting));
        }
        return s;
    }

    /** Whether the clock was set to real on the command line. */
    boolean real() {
        return "real".equals(clock.getValue());
    }
}
