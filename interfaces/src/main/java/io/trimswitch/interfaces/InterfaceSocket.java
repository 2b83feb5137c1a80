package io.trimswitch.interfaces;

/** What every kind's socket knows of its interface: its name, its index, its descriptor and its MTU. */
public abstract class InterfaceSocket implements PortSocket {
    protected final String name;
    protected final int index;
    protected final int fd;
    /** Read at opening, then as the kernel's link notifications tell; the ports' thread alone writes it. */
    private int mtu;

    protected InterfaceSocket(final String name, final int index, final int mtu, final int fd) {
        this.name = name;
        this.index = index;
        this.mtu = mtu;
        this.fd = fd;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int index() {
        return index;
    }

    @Override
    public final int fd() {
        return fd;
    }

    @Override
    public final int mtu() {
        return mtu;
    }

    @Override
    public final void mtu(final int value) {
        mtu = value;
    }
}
