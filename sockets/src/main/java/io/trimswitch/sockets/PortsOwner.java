package io.trimswitch.sockets;

import org.agrona.concurrent.Agent;

/** The duty cycle that owns a group of ports: it runs between polls of their sockets, on their thread. */
public interface PortsOwner extends Agent {
    /** {@link #sleepNanos()}: nothing inside moves with time alone; sleep until a socket has data or a wake-up. */
    long UNTIL_WOKEN = Long.MAX_VALUE;

    /**
     * After a turn in which nothing happened: how long the thread may sleep (host nanoseconds), waking early when a
     * socket has data or it is woken. 0: it must keep polling; {@link #UNTIL_WOKEN}: nothing inside it moves with time
     * alone; otherwise until the next instant time alone moves something on (a packet finishing on a slow link).
     */
    long sleepNanos();
}
