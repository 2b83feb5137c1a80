package io.trimswitch.cli;

import io.trimswitch.config.Settings;
import picocli.CommandLine.Model.OptionSpec;

/** The options of a scenario that set the switch's meters, its trim control loop and its queues. */
final class TrimControlOptions extends OptionGroup {
    private final OptionSpec t0Us = option("--t0-us", "US", Double.class, "Pessimistic period after a NOTIFY, µs (default: 6)");

    private final OptionSpec t1Us = option("--t1-us", "US", Double.class, "End of the halftimistic period after a NOTIFY, µs (default: 24)");

    private final OptionSpec notify = option("--notify", "all|origin", String.class, "all | origin: pipelines a congestion NOTIFY reaches (default: all)");

    private final OptionSpec signal = option("--signal", "every|backlog", String.class,
        "every | backlog: deflected packets that raise a signal (default: every)");

    private final OptionSpec signalBacklog = option("--signal-backlog", "PACKETS", Integer.class,
        "With --signal backlog: DoD packets that must wait behind (default: 1)");

    private final OptionSpec noHalftimistic = flag("--no-halftimistic", "Go from pessimistic straight back to optimistic (default: off, halftimistic between them)");

    private final OptionSpec pessimisticRate = option("--pessimistic-rate", "GBPS", Double.class,
        "Meter rate while pessimistic, Gb/s; 0 trims everything (default: R/4)");

    private final OptionSpec halftimisticRate = option("--halftimistic-rate", "GBPS", Double.class, "Meter rate while halftimistic, Gb/s (default: R/2)");

    private final OptionSpec meters = option("--meters", "three|two", String.class, "three | two: meter profile (default: three)");

    private final OptionSpec dataQueue = option("--data-queue", "PACKETS", Integer.class, "Data queue capacity per egress port (default: 16)");

    private final OptionSpec headerQueue = option("--header-queue", "PACKETS", Integer.class, "Header queue capacity per egress port (default: 1024)");

    private final OptionSpec dodQueue = option("--dod-queue", "PACKETS", Integer.class, "DoD queue capacity per pipeline (default: 16384)");

    private final OptionSpec returnToSender = flag("--return-to-sender", "Send headers that meet a full header queue back to their sender (default: off, they are dropped)");

    /** {@code settings} with the meters' and control loop's options given. */
    Settings control(final Settings settings) {
        Settings s = settings;
        if (given(meters)) {
            final Settings.MeterProfile profile = Settings.choice("control.meters", meters.getValue(), Settings.MeterProfile.values());
            s = s.withControl(c -> c.withMeters(profile));
        }
        if (given(notify)) {
            final Settings.NotifyScope scope = Settings.choice("control.notify", notify.getValue(), Settings.NotifyScope.values());
            s = s.withControl(c -> c.withNotifyScope(scope));
        }
        if (given(signal)) {
            final Settings.SignalTrigger trigger = Settings.choice("control.signal", signal.getValue(), Settings.SignalTrigger.values());
            s = s.withControl(c -> c.withSignal(trigger));
        }
        if (given(t0Us)) {
            s = s.withControl(c -> c.withT0Us(t0Us.getValue()));
        }
        if (given(t1Us)) {
            s = s.withControl(c -> c.withT1Us(t1Us.getValue()));
        }
        if (given(signalBacklog)) {
            s = s.withControl(c -> c.withSignalBacklog(signalBacklog.getValue()));
        }
        if (set(noHalftimistic)) {
            s = s.withControl(c -> c.withHalftimistic(false));
        }
        if (given(pessimisticRate)) {
            s = s.withControl(c -> c.withPessimisticRateGbps(pessimisticRate.getValue()));
        }
        if (given(halftimisticRate)) {
            s = s.withControl(c -> c.withHalftimisticRateGbps(halftimisticRate.getValue()));
        }
        return s;
    }

    /** {@code settings} with the queues' options given. */
    Settings queues(final Settings settings) {
        Settings s = settings;
        if (given(dataQueue)) {
            s = s.withFabric(f -> f.withDataQueuePackets(dataQueue.getValue()));
        }
        if (given(headerQueue)) {
            s = s.withFabric(f -> f.withHeaderQueuePackets(headerQueue.getValue()));
        }
        if (given(dodQueue)) {
            s = s.withRecirculation(r -> r.withDodQueuePackets(dodQueue.getValue()));
        }
        if (set(returnToSender)) {
            s = s.withTrim(t -> t.withReturnToSender(true));
        }
        return s;
    }
}
