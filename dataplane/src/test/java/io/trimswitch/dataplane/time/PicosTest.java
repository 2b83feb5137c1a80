package io.trimswitch.dataplane.time;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PicosTest {
    @Test
    void a1500ByteFrameTakes120NanosecondsAt100Gbps() {
        assertEquals(120_000, Picos.serialisation(1500, 100_000_000_000L));
    }

    @Test
    void a64ByteHeaderTakes5120PicosecondsAt100Gbps() {
        assertEquals(5_120, Picos.serialisation(64, 100_000_000_000L));
    }

    @Test
    void inexactSerialisationRoundsUp() {
        assertEquals(1143, Picos.serialisation(1, 7_000_000_000L));
    }
}
