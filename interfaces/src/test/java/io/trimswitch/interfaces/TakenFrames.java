package io.trimswitch.interfaces;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import org.agrona.concurrent.UnsafeBuffer;

/** What a test's ports receive, as their thread would take it: a burst into the pool, each frame shown, then freed. */
public final class TakenFrames {
    /** Sees each frame taken, in its packet buffer. */
    public interface Sink {
        void onFrame(int port, UnsafeBuffer buffer, int offset, int length);
    }

    private final Burst burst = new Burst();
    private final PacketPool pool;
    private final Sink sink;
    /** Frames that found no free buffer. */
    private long unbuffered;
    /** When the kernel received the last frame taken, as its kind stamped it. */
    private long lastReceivedNanos = Burst.UNSTAMPED;

    public TakenFrames(final PacketPool pool, final Sink sink) {
        this.pool = pool;
        this.sink = sink;
    }

    /** One receive of {@code ports}; how many frames it took off their rings. */
    public int receive(final InterfacePorts ports) {
        final int taken = ports.receive(burst);
        for (int i = 0; i < burst.size(); i++) {
            final int handle = burst.handle(i);
            lastReceivedNanos = burst.receivedNanos(i);
            if (handle == PacketPool.NO_PACKET) {
                unbuffered++;
                continue;
            }
            sink.onFrame(burst.port(i), pool.buffer(handle), pool.offset(handle), pool.length(handle));
            pool.free(handle);
        }
        burst.clear();
        return taken;
    }

    public long lastReceivedNanos() {
        return lastReceivedNanos;
    }

    public long unbuffered() {
        return unbuffered;
    }
}
