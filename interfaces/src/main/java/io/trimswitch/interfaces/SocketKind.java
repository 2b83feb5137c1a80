package io.trimswitch.interfaces;

import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.dataplane.ports.RegisteredKind;

import java.util.function.IntFunction;

/**
 * One kind of interface port, in a package of its own that nothing else names: what it is called in the settings
 * ({@code kind: af_xdp}) and how it opens an interface. A kind is registered as every port kind is
 * ({@link RegisteredKind}), and found by its own name through {@link SocketKinds}.
 */
public interface SocketKind extends RegisteredKind {

    /**
     * Opens {@code interfaceName} as a port of this kind, reading its first {@code queues} receive queues; {@code mustBeUp}:
     * refuse an interface that is administratively down. {@code calls} are the opening thread's.
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    PortSocket open(String interfaceName, LinuxCalls calls, boolean mustBeUp, int queues);

    /**
     * This kind, receiving each receive queue's frames straight into the pool buffers {@code queueFrames} gives for it
     * (the piece of the pool's second class of the thread that reads the queue), where the kind can; else itself.
     */
    default SocketKind receivingInto(final IntFunction<UmemShare> queueFrames) {
        return this;
    }
}
