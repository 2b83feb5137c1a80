package io.trimswitch.live.port;

import io.trimswitch.dataplane.ports.PortKinds;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.interfaces.SocketKinds;
import io.trimswitch.realtime.ScenarioPortKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Every kind of port a live switch or a real-time scenario can have is found in the one registry by its name, each
 * among the kinds of its own role: an interface port's kind is never the UDP kind, whatever a setting calls it.
 */
class PortKindsTest {
    @Test
    void eachRoleFindsItsOwnKindsByName() {
        assertEquals("af_packet, af_xdp", PortKinds.names(SocketKind.class));
        assertEquals(LivePortKind.UDP, PortKinds.names(LivePortKind.class));
        assertEquals("generated", PortKinds.names(ScenarioPortKind.class));
        assertEquals(LivePortKind.UDP, LivePortKind.named(LivePortKind.UDP).name());
    }

    @Test
    void aNameOfAnotherRoleOrOfNoKindFindsNothing() {
        assertNull(SocketKinds.named(LivePortKind.UDP));
        assertNull(LivePortKind.named("af_xdp"));
        assertNull(PortKinds.named(ScenarioPortKind.class, "nonesuch"));
        assertNull(PortKinds.named(ScenarioPortKind.class, null));
    }
}
