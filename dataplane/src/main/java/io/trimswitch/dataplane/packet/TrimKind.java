package io.trimswitch.dataplane.packet;

/** Where a packet was cut to its header; stored as a byte in {@link PacketPool}. */
public final class TrimKind {
    public static final byte NONE = 0;
    /** Cut by an ingress pipeline because its meter for the egress port said so. */
    public static final byte INGRESS = 1;
    /** Deflected on drop into a recirculation port and cut when it came back. */
    public static final byte DOD = 2;
    /** Header mirrored on drop through a mirror port. */
    public static final byte MIRROR = 3;
    /** Cut by the output-queued ideal switch at enqueue. */
    public static final byte IDEAL = 4;
    public static final int COUNT = 5;

    private static final String[] NAMES = {"none", "ingress", "dod", "mirror", "ideal"};

    private TrimKind() {
    }

    public static String name(final int kind) {
        return NAMES[kind];
    }
}
