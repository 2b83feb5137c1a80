package io.trimswitch.realtime.sockets;

import org.agrona.concurrent.Agent;

/** The duty cycle that owns a group of ports: it runs between polls of their sockets, on their thread. */
public interface PortsOwner extends Agent {
    /**
     * After a turn in which nothing happened: true when the thread may sleep until a socket has data or it
     * is woken, because nothing is inside it that time alone would move on.
     */
    boolean readyToSleep();
}
