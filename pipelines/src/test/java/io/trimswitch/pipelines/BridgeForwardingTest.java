package io.trimswitch.pipelines;

import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bridge as a pipeline's forwarding: what each frame's source teaches it, at the frame's own arrival time, and where
 * that sends the frames after it, with a copy of the bridge per shard.
 */
class BridgeForwardingTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long PICOS_PER_SECOND = 1_000_000_000_000L;
    private static final long HOST_A = 0x0200_0000_000AL;
    private static final long HOST_B = 0x0200_0000_000BL;
    private static final long BROADCAST = 0xFFFF_FFFF_FFFFL;

    private final PacketPool pool = new PacketPool(16);
    /** Ports 0 and 1 on shard 0, ports 2 and 3 on shard 1. */
    private final BridgeForwarding bridge = new BridgeForwarding(10 * SECOND, 1024, Map.of(HOST_B, 3), new int[] {0, 0, 1, 1}, new int[] {0, 1, 2, 3}, 2);

    @Test
    void aLearnedSourceIsWhereFramesToItGoUntilItAges() {
        assertEquals(ForwardingStage.FLOOD, forward(1, HOST_A, 0x0200_0000_00FFL, 0), "unknown destination");
        assertEquals(1, forward(0, 0x0200_0000_00FFL, HOST_A, SECOND), "host A was learned on port 1");
        assertEquals(ForwardingStage.FLOOD, forward(0, 0x0200_0000_00FFL, HOST_A, 11 * SECOND + 1), "aged out ten seconds after");
    }

    @Test
    void broadcastFloodsAndAStaticEntryIsNeitherAgedNorRelearned() {
        assertEquals(ForwardingStage.FLOOD, forward(0, HOST_A, BROADCAST, 0));
        assertEquals(3, forward(0, HOST_A, HOST_B, 100 * SECOND), "static, never aged");
        forward(1, HOST_B, HOST_A, 100 * SECOND);
        assertEquals(3, forward(0, HOST_A, HOST_B, 100 * SECOND), "a static address seen elsewhere stays where it was put");
    }

    @Test
    void aDestinationBehindTheIngressPortIsFiltered() {
        forward(0, HOST_A, BROADCAST, 0);
        assertEquals(ForwardingStage.FILTERED, forward(0, 0x0200_0000_00FFL, HOST_A, SECOND));
    }

    @Test
    void eachShardUsesItsOwnCopyAndTellsItsListenerWhatItLearned() {
        final List<String> told = new ArrayList<>();
        bridge.listener(1, (mac, port, now, changed) -> told.add(Long.toHexString(mac) + "@" + port + " " + now + (changed ? " new" : "")));
        forward(0, HOST_A, BROADCAST, 0);
        assertEquals(List.of(), told, "shard 0 has no listener here: port 0 is its");
        forward(2, HOST_A, BROADCAST, SECOND);
        forward(2, HOST_A, BROADCAST, 2 * SECOND);
        assertEquals(List.of("2000000000a@2 1000000000 new", "2000000000a@2 2000000000"), told, "in nanoseconds, the frames' own times");
        assertEquals(0, bridge.bridge(0).lookup(HOST_A, 2 * SECOND), "shard 0's copy knows only what its ports saw");
        assertEquals(2, bridge.bridge(1).lookup(HOST_A, 2 * SECOND));
    }

    @Test
    void aPortTakenWhileTheSwitchRunsIsFloodedToByTheShardsToldSo() {
        bridge.floodAlsoTo(1, 4);
        bridge.floodAlsoTo(1, 4);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, bridge.floodPorts(2), "once, however often told");
        assertArrayEquals(new int[] {0, 1, 2, 3}, bridge.floodPorts(0), "shard 0 was not told yet");
    }

    /** Where a frame from {@code source} to {@code destination}, in on {@code port} at {@code nanos}, goes. */
    private int forward(final int port, final long source, final long destination, final long nanos) {
        final int handle = pool.allocate();
        final UnsafeBuffer frame = pool.buffer(handle);
        final int at = pool.offset(handle);
        for (int i = 0; i < 6; i++) {
            frame.putByte(at + i, (byte) (destination >>> (40 - 8 * i)));
            frame.putByte(at + 6 + i, (byte) (source >>> (40 - 8 * i)));
        }
        pool.length(handle, 64);
        pool.ingressPort(handle, port);
        pool.arrivalPicos(handle, nanos * (PICOS_PER_SECOND / SECOND));
        final int egress = bridge.egressPort(pool, handle, 0);
        pool.free(handle);
        return egress;
    }
}
