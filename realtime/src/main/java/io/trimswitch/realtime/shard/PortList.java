package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;

import java.util.Arrays;

/**
 * A shard's ports: the kinds it holds ({@link PortKind}), which kind sends for each port, the tap that sees their
 * traffic ({@link PortTap}) and where the shard sleeps ({@link ShardSleep}). Each turn every kind receives a burst into
 * the shard's own {@link Burst}, which the shard's {@link Ingress} then takes; a packet that left an egress port goes to
 * the tap, then to its port's kind, and every kind flushes once.
 * Every method runs on the shard's thread, except {@link #wake()}; the list is set up before the thread starts, and a
 * port given to the switch while it runs is assigned on the thread.
 */
public final class PortList {
    private final ShardSleep sleep;
    /** Per port of the switch: the kind that sends what leaves it, or null for a port of another shard. */
    private final PortKind[] kindOf;
    private PortKind[] kinds = new PortKind[0];
    private PortTap tap = PortTap.NONE;
    /** The shard's one burst, filled by each kind in turn and emptied by the ingress before the next. */
    private final Burst burst = new Burst();
    private Ingress ingress = Ingress.NONE;
    /** Ports whose kind does not stamp its frames' arrivals ({@link PortKind#stampsArrivals()}), kept as ports come and go. */
    private int unstampedPorts;

    /** Ports of a switch of {@code ports} ports, whose shard sleeps in {@code sleep}. */
    public PortList(final int ports, final ShardSleep sleep) {
        this.kindOf = new PortKind[ports];
        this.sleep = sleep;
    }

    /** Adds {@code kind}, which sends for {@code ports}; its file descriptors wake the shard from now on. */
    public PortList add(final PortKind kind, final int... ports) {
        kinds = Arrays.copyOf(kinds, kinds.length + 1);
        kinds[kinds.length - 1] = kind;
        for (final int port : ports) {
            assign(port, kind);
        }
        kind.watchFileDescriptors(sleep.watch());
        return this;
    }

    /** Port {@code port} is {@code kind}'s from now on, one given to the switch while it runs say. */
    public void assign(final int port, final PortKind kind) {
        if (kind != null && Arrays.stream(kinds).noneMatch(each -> each == kind)) {
            throw new IllegalArgumentException("port " + port + ": its kind is not one of the shard's");
        }
        if (kindOf[port] != null && !kindOf[port].stampsArrivals()) {
            unstampedPorts--;
        }
        if (kind != null && !kind.stampsArrivals()) {
            unstampedPorts++;
        }
        kindOf[port] = kind;
    }

    /** Whether every port the shard has now times its frames by their arrival ({@link PortKind#stampsArrivals()}). */
    boolean everyPortStamped() {
        return unstampedPorts == 0;
    }

    /** What sees the ports' traffic from now on. */
    public PortList tap(final PortTap what) {
        this.tap = what;
        return this;
    }

    /** What takes every burst the kinds receive, from now on. */
    public PortList ingress(final Ingress stage) {
        this.ingress = stage;
        return this;
    }

    /** What sees the ports' traffic: the kinds' receive paths hand it every frame. */
    public PortTap tap() {
        return tap;
    }

    int poll() {
        int work = 0;
        for (final PortKind kind : kinds) {
            work += kind.poll(burst);
            admit();
        }
        return work;
    }

    int receive() {
        int work = 0;
        for (final PortKind kind : kinds) {
            work += kind.receive(burst);
            admit();
        }
        return work;
    }

    private void admit() {
        if (burst.size() > 0) {
            ingress.admit(burst);
            burst.clear();
        }
    }

    /** Up to where every kind has handed the shard its arrivals (MAX_VALUE: all it ever will); without kinds, now. */
    long horizon(final long now) {
        if (kinds.length == 0) {
            return now;
        }
        long horizon = Long.MAX_VALUE;
        for (final PortKind kind : kinds) {
            horizon = Math.min(horizon, kind.horizon(now));
        }
        return horizon;
    }

    void departed(final int port, final int handle, final long time) {
        tap.departed(port, handle, time);
        kindOf[port].send(port, handle, time);
    }

    void flush() {
        for (final PortKind kind : kinds) {
            kind.flush();
        }
    }

    boolean hasUnsent() {
        for (final PortKind kind : kinds) {
            if (kind.hasUnsent()) {
                return true;
            }
        }
        return false;
    }

    boolean waitsForBuffers() {
        for (final PortKind kind : kinds) {
            if (kind.waitsForBuffers()) {
                return true;
            }
        }
        return false;
    }

    void await(final long nanos) {
        sleep.await(nanos);
    }

    /** From any thread: ends the shard's sleep now, or makes its next one return at once. */
    public void wake() {
        sleep.wake();
    }

    void close() {
        for (final PortKind kind : kinds) {
            kind.close();
        }
    }
}
