package io.trimswitch.switching;

import io.trimswitch.config.Settings;

/**
 * A finished run's figures gathered for its report, whichever clock drove it: a lone switch's run, or one switch of a
 * network seen as a lone switch's.
 */
public record SwitchRunView(
    Settings settings, TrafficSource source, AssembledSwitch assembly, RunRecorder recorder, long durationPicos, long lastPacketPicos,
    long eventsHandled, FlowLifetimes flowLifetimes, String transport, RealTimeStats realTimeStats) implements SwitchRun {

    /** A run in virtual time: no figures of how a host kept up. */
    public SwitchRunView(
        final Settings settings, final TrafficSource source, final AssembledSwitch assembly, final RunRecorder recorder, final long durationPicos,
        final long lastPacketPicos, final long eventsHandled, final FlowLifetimes flowLifetimes, final String transport) {
        this(settings, source, assembly, recorder, durationPicos, lastPacketPicos, eventsHandled, flowLifetimes, transport, null);
    }
}
