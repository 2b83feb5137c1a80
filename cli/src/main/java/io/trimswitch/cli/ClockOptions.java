package io.trimswitch.cli;

import io.trimswitch.config.SwitchSettings;
import picocli.CommandLine.Model.OptionSpec;

/** How a run is clocked, the same for every command that runs the switch on generated or replayed traffic. */
final class ClockOptions extends OptionGroup {
    private final OptionSpec clock = option("--clock", "virtual|real", String.class,
        "virtual: deterministic discrete-event time; real: agent threads paced by the host clock, dilated, with open-loop senders"
            + " (default: the config's, else virtual)");

    private final OptionSpec dilation = option("--dilation", "D", Double.class,
        "With --clock real: one µs of switch time takes D µs of wall time (default: 4000)");

    private final OptionSpec placement = option("--placement", "split|per-role|per-agent|single", String.class,
        "With --clock real: which agents share a thread (default: single)");

    private final OptionSpec idle = option("--idle", "busy-spin|yield|backoff|sleep", String.class,
        "With --clock real: what a thread does when it had nothing to do (default: busy-spin)");

    /** Writes what was given over {@code settings}; returns whether the clock was set to real. */
    boolean applyTo(final SwitchSettings settings) {
        final String givenClock = clock.getValue();
        final Double givenDilation = dilation.getValue();
        final String givenPlacement = placement.getValue();
        final String givenIdle = idle.getValue();
        if (givenClock != null) {
            settings.clock = givenClock;
        }
        if (givenDilation != null) {
            settings.realtime.dilation = givenDilation;
        }
        if (givenPlacement != null) {
            settings.realtime.placement = givenPlacement;
        }
        if (givenIdle != null) {
            settings.realtime.idle = givenIdle;
        }
        return "real".equals(givenClock);
    }
}
