package io.trimswitch.realtime.shard;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.TrimStateTable;
import io.trimswitch.switching.AssembledSwitch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IngressStageTest {
    private final Settings settings = Settings.DEFAULTS.withMechanism(Mechanism.TOFINO);
    private final PacketPool pool = new PacketPool(16);
    private final AssembledSwitch assembly = Assemblies.of(settings, pool);
    /** The NOTIFYs the recirculation ports of every shard send to pipeline 0. */
    private final NotifyInboxes inboxes = new NotifyInboxes(1);
    private final IngressStage stage = new IngressStage(assembly.pipeline(0), pool, inboxes.reader(0));
    private final TrimStateTable states = assembly.pipeline(0).trimStates();

    @Test
    void aNotifyDueBeforeAnArrivalIsAppliedBeforeThePacketIsMetered() {
        inboxes.send(3, 0, 100);
        assertEquals(1, stage.drainInbox());
        stage.applyNotifiesBefore(101);
        assertEquals(1, states.notifications(3));
    }

    @Test
    void aPacketArrivingAtTheInstantANotifyIsDueIsMeteredBeforeTheNotifyIsApplied() {
        inboxes.send(3, 0, 100);
        stage.drainInbox();
        stage.applyNotifiesBefore(100);
        assertEquals(0, states.notifications(3), "due at the arrival's instant: after it, as virtual time orders them");
    }

    @Test
    void notifiesFromSeveralRecirculationPortsAreAppliedInDueOrderWhateverOrderTheyCameIn() {
        inboxes.send(3, 0, 300);
        inboxes.send(4, 0, 100);
        inboxes.send(5, 0, 200);
        stage.drainInbox();
        stage.applyNotifiesBefore(150);
        assertEquals(1, states.notifications(4));
        assertEquals(0, states.notifications(5), "due at 200, after the arrival at 150, though it came before the one due at 100");
        assertEquals(0, states.notifications(3));
        stage.applyNotifiesBefore(250);
        assertEquals(1, states.notifications(5));
        assertEquals(0, states.notifications(3));
    }

    @Test
    void aResetStageForgetsTheNotifiesOfTheRunBefore() {
        inboxes.send(3, 0, 100);
        stage.drainInbox();
        inboxes.send(4, 0, 100);
        stage.reset();
        stage.applyNotifiesBefore(Long.MAX_VALUE);
        assertEquals(0, states.notifications(3));
        assertEquals(0, states.notifications(4));
    }
}
