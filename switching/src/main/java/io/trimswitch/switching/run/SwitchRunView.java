package io.trimswitch.switching.run;

import io.trimswitch.config.Settings;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.record.RealTimeStats;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;

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
