package io.trimswitch.switching;

import io.trimswitch.config.Settings;

/** A finished run's figures gathered for its report: one switch of a network, seen as a lone switch's run. */
public record SwitchRunView(
    Settings settings, TrafficSource source, AssembledSwitch assembly, RunRecorder recorder, long durationPicos, long lastPacketPicos,
    long eventsHandled, FlowLifetimes flowLifetimes, String transport) implements SwitchRun {
}
