package io.trimswitch.switching.run;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.record.RealTimeStats;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.source.TrafficSource;

/** What a finished run of the switch offers its report, whichever clock drove it. */
public interface SwitchRun {
    /** The longest run, in switch time: what the virtual-time engine's event keys hold (about 8.7 s). */
    long LONGEST_RUN_PICOS = TrafficSource.LATEST_ARRIVAL_PICOS;

    Settings settings();

    default Mechanism mechanism() {
        return assembly().mechanism();
    }

    TrafficSource source();

    /** The components, with every port's counters totalled over the threads that counted. */
    AssembledSwitch assembly();

    /** Every flow's packets: sent, delivered, dropped and why. */
    RunRecorder recorder();

    /** How long the run could last, in switch time. */
    long durationPicos();

    /** When the last packet left the switch. */
    long lastPacketPicos();

    /** Events handled (virtual time) or duty cycles that did work (real time). */
    long eventsHandled();

    /** How each flow's life went, when the transport has flows that finish (NDP); else null. */
    FlowLifetimes flowLifetimes();

    /** The transport: open-loop senders, NDP hosts, or a replay. */
    String transport();

    /** How the host kept up, for a real-time run; null in virtual time. */
    default RealTimeStats realTimeStats() {
        return null;
    }
}
