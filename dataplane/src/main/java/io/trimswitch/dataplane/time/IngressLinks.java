package io.trimswitch.dataplane.time;

/**
 * The links into a switch's ports: no link delivers frames faster than its rate, so each frame arrives at
 * least one serialisation time after the one before it on the same port, however the host handed them
 * over. A socket read returns a host's burst all at once (a TCP segment offloaded in one piece is some
 * 45 frames); stamped with the instant of the read, the burst would enter at an infinite rate and
 * overflow a queue of an idle port. Generated and replayed traffic is paced at its source; sockets are
 * paced here.
 */
public final class IngressLinks {
    /** A port's rate is replaced while a switch runs, published with a release store and read with an acquire load. */
    private static final java.lang.invoke.VarHandle RATE = java.lang.invoke.MethodHandles.arrayElementVarHandle(LinkRate[].class);
    private final LinkRate[] rates;
    private final long[] lastArrival;

    /** @param rates each port's rate (null for a port without a link) */
    public IngressLinks(final LinkRate[] rates) {
        this.rates = rates.clone();
        this.lastArrival = new long[rates.length];
        java.util.Arrays.fill(lastArrival, Long.MIN_VALUE / 2);
    }

    /**
     * When a frame of {@code bytes} read at {@code now} arrives: its last bit comes one serialisation time
     * after the previous frame's at the earliest.
     */
    public long arrival(final int port, final int bytes, final long now) {
        final long arrival = Math.max(now, lastArrival[port] + ((LinkRate) RATE.getAcquire(rates, port)).serialisation(bytes));
        lastArrival[port] = arrival;
        return arrival;
    }

    /** A new rate for {@code port}'s link, from the thread that owns these links (a live shard, carrying out new settings). */
    public void rate(final int port, final LinkRate rate) {
        RATE.setRelease(rates, port, java.util.Objects.requireNonNull(rate, "a link needs a rate"));
    }
}
