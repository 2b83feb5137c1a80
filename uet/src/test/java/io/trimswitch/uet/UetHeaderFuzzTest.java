package io.trimswitch.uet;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Any bytes as a frame: the parser finds UET fields wholly inside it, or says it is not UET; never an exception. */
class UetHeaderFuzzTest {
    @FuzzTest
    void anyFrameIsUetWithinItsBytesOrNot(final byte[] frame) {
        final UnsafeBuffer buffer = new UnsafeBuffer(frame);
        final int shim = UetHeader.find(buffer, 0, frame.length);
        if (shim == UetHeader.NOT_UET) {
            return;
        }
        assertTrue(shim >= 42 && shim + UetHeader.LENGTH <= frame.length, "fields inside the frame: " + shim);
        final int flags = UetHeader.flags(buffer, shim);
        assertTrue(Integer.bitCount(flags & (UetHeader.FLAG_DATA | UetHeader.FLAG_ACK | UetHeader.FLAG_NACK)) == 1);
        UetHeader.psn(buffer, shim);
        UetHeader.cumulative(buffer, shim);
        UetHeader.entropy(buffer, shim);
        UetHeader.received(buffer, shim);
        UetHeader.ecn(buffer, 0);
    }
}
