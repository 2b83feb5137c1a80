package io.trimswitch.cli;

import io.trimswitch.config.SwitchSettings;
import picocli.CommandLine.Option;

/** How a run is clocked, the same for every command that runs the switch on generated or replayed traffic. */
final class ClockOptions {
    @Option(names = "--clock", paramLabel = "virtual|real",
        description = "virtual: deterministic discrete-event time; real: agent threads paced by the host clock, dilated, with open-loop senders (default: the config's, else virtual)")
    String clock;

    @Option(names = "--dilation", paramLabel = "D",
        description = "With --clock real: one µs of switch time takes D µs of wall time (default: 4000)")
    Double dilation;

    @Option(names = "--placement", paramLabel = "split|per-role|per-agent|single",
        description = "With --clock real: which agents share a thread (default: single)")
    String placement;

    @Option(names = "--idle", paramLabel = "busy-spin|yield|backoff|sleep",
        description = "With --clock real: what a thread does when it had nothing to do (default: busy-spin)")
    String idle;

    /** Writes what was given over {@code settings}; returns whether the clock was set to real. */
    boolean applyTo(final SwitchSettings settings) {
        if (clock != null) {
            settings.clock = clock;
        }
        if (dilation != null) {
            settings.realtime.dilation = dilation;
        }
        if (placement != null) {
            settings.realtime.placement = placement;
        }
        if (idle != null) {
            settings.realtime.idle = idle;
        }
        return "real".equals(clock);
    }
}
