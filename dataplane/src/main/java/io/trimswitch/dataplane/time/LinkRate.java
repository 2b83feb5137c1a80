package io.trimswitch.dataplane.time;

/** A link's rate and the time it takes to serialise a frame on it, exact to the picosecond. */
public final class LinkRate {
    private final long bitsPerSecond;
    private final long picosPerByte;

    public LinkRate(final long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("a link rate must be positive, got " + bitsPerSecond + " b/s");
        }
        this.bitsPerSecond = bitsPerSecond;
        final long bytePicos = 8 * Picos.PER_SECOND;
        // Common rates (100, 40, 25, 10 Gb/s) divide 8e12 exactly: multiply instead of divide per packet.
        this.picosPerByte = bytePicos % bitsPerSecond == 0 ? bytePicos / bitsPerSecond : 0;
    }

    public static LinkRate gbps(final double gigabitsPerSecond) {
        return new LinkRate(Math.round(gigabitsPerSecond * 1e9));
    }

    public long bitsPerSecond() {
        return bitsPerSecond;
    }

    public long serialisation(final int bytes) {
        return picosPerByte != 0 ? bytes * picosPerByte : Picos.serialisation(bytes, bitsPerSecond);
    }

    public double gigabitsPerSecond() {
        return bitsPerSecond / 1e9;
    }
}
