package io.trimswitch.simulator;

import java.util.Arrays;

/**
 * How a network's switches connect: every port of every switch leads to a host's link, to a port of another switch,
 * or to nothing. Ports are numbered across the network (switch s's port p is {@code portBase(s) + p}), which is how
 * the event queue names them. A lone switch is wired as a network of one: port p to host link p.
 */
public final class Wiring {
    private final int[] portBase;
    private final int[] switchOfPort;
    /** Per network port: the host link at its far end, or -1. */
    private final int[] hostAt;
    /** Per network port: the network port at its far end, or -1. */
    private final int[] peerOf;
    /** Per host link: the network port it is plugged into. */
    private final int[] portOfLink;

    /** Switches with {@code ports[s]} ports each, {@code hostLinks} host links, nothing connected yet. */
    public Wiring(final int[] ports, final int hostLinks) {
        this.portBase = new int[ports.length + 1];
        for (int s = 0; s < ports.length; s++) {
            portBase[s + 1] = portBase[s] + ports[s];
        }
        final int total = portBase[ports.length];
        this.switchOfPort = new int[total];
        for (int s = 0; s < ports.length; s++) {
            Arrays.fill(switchOfPort, portBase[s], portBase[s + 1], s);
        }
        this.hostAt = new int[total];
        this.peerOf = new int[total];
        Arrays.fill(hostAt, -1);
        Arrays.fill(peerOf, -1);
        this.portOfLink = new int[hostLinks];
        Arrays.fill(portOfLink, -1);
    }

    /** Host link {@code link} is plugged into port {@code port} of switch {@code sw}. */
    public void plugHost(final int link, final int sw, final int port) {
        final int at = port(sw, port);
        hostAt[at] = link;
        portOfLink[link] = at;
    }

    /** A cable between port {@code portA} of switch {@code a} and port {@code portB} of switch {@code b}. */
    public void cable(final int a, final int portA, final int b, final int portB) {
        final int one = port(a, portA);
        final int other = port(b, portB);
        peerOf[one] = other;
        peerOf[other] = one;
    }

    /** Ports in the whole network. */
    public int ports() {
        return portBase[portBase.length - 1];
    }

    public int port(final int sw, final int port) {
        return portBase[sw] + port;
    }

    public int portBase(final int sw) {
        return portBase[sw];
    }

    public int switchOf(final int networkPort) {
        return switchOfPort[networkPort];
    }

    public int hostAt(final int networkPort) {
        return hostAt[networkPort];
    }

    public int peerOf(final int networkPort) {
        return peerOf[networkPort];
    }

    public int hostLinks() {
        return portOfLink.length;
    }

    /** The network port host link {@code link} is plugged into. */
    public int portOfLink(final int link) {
        return portOfLink[link];
    }

    /** One switch of {@code ports} ports, each plugged into the host link of its own number. */
    public static Wiring loneSwitch(final int ports) {
        final Wiring wiring = new Wiring(new int[] {ports}, ports);
        for (int port = 0; port < ports; port++) {
            wiring.plugHost(port, 0, port);
        }
        return wiring;
    }
}
