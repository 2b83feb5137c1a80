package io.trimswitch.live.shard;

/** An address in the live switch's bridge: where it sits, how long ago a frame from it was seen (0 for a static one). */
public record LearnedMac(long mac, int port, long ageNanos, boolean isStatic) {
    /** The address as Linux writes it: 02:00:00:00:00:0a. */
    public String address() {
        final StringBuilder text = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            text.append(String.format("%02x", (mac >>> shift) & 0xff)).append(shift > 0 ? ":" : "");
        }
        return text.toString();
    }
}
