package io.trimswitch.live;

import io.trimswitch.interfaces.InterfacePorts;

/**
 * A shard's ports on Linux interfaces: a frame is sent straight from its buffer, one sendmmsg per port and turn, and
 * the interface gives the buffer back once the kernel has the frame.
 */
final class InterfacePortKind implements PortKind {
    private final InterfacePorts interfaces;

    InterfacePortKind(final InterfacePorts interfaces) {
        this.interfaces = interfaces;
    }

    @Override
    public void send(final int port, final int handle) {
        interfaces.send(port, handle);
    }

    @Override
    public void flush() {
        interfaces.flush();
    }

    /** A frame the kernel will not take is dropped as txBusy, never held. */
    @Override
    public boolean hasUnsent() {
        return false;
    }

    /** The rings close once the shard's thread has ended, with the switch's stop: their memory is the thread's until then. */
    @Override
    public void close() {
    }
}
