package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.packet.PacketPool;

/**
 * The engine's switches made from who they are and how they are wired, and which switch each network port and each
 * network recirculation port belongs to: the lookups an event makes to find its switch.
 */
final class NetworkNodes {
    private final SwitchNode[] nodes;
    private final SwitchNode[] ofPort;
    private final SwitchNode[] ofRecirculation;

    NetworkNodes(final VirtualTimeEngine engine, final VirtualTimeEngine.Switches switches, final Wiring wiring, final PacketPool pool) {
        this.nodes = new SwitchNode[switches.settings().length];
        this.ofPort = new SwitchNode[wiring.ports()];
        int recirculationBase = 0;
        for (int sw = 0; sw < nodes.length; sw++) {
            nodes[sw] = new SwitchNode(engine, sw, switches.names()[sw], switches.tiers()[sw], switches.settings()[sw], pool,
                switches.forwarding()[sw], wiring.portBase(sw), recirculationBase);
            recirculationBase += nodes[sw].assembly().recirculationPorts();
            for (int port = 0; port < nodes[sw].assembly().ports(); port++) {
                ofPort[wiring.port(sw, port)] = nodes[sw];
            }
        }
        if (wiring.ports() > EventQueue.MAX_ARG || recirculationBase > EventQueue.MAX_ARG) {
            throw new ConfigException("the network has " + wiring.ports() + " ports; at most " + EventQueue.MAX_ARG + " fit");
        }
        this.ofRecirculation = new SwitchNode[recirculationBase];
        for (final SwitchNode node : nodes) {
            for (int pipeline = 0; pipeline < node.assembly().recirculationPorts(); pipeline++) {
                ofRecirculation[node.recirculationBase() + pipeline] = node;
            }
        }
    }

    SwitchNode[] nodes() {
        return nodes;
    }

    /** Per network port: its switch. */
    SwitchNode[] ofPort() {
        return ofPort;
    }

    /** Per network recirculation port: its switch. */
    SwitchNode[] ofRecirculation() {
        return ofRecirculation;
    }
}
