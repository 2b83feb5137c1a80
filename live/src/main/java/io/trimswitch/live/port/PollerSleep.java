package io.trimswitch.live.port;

import io.trimswitch.interfaces.PortPoller;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardSleep;

/** A live shard sleeps in the kernel, in one {@link PortPoller} over the file descriptors its port kinds hand it. */
final class PollerSleep implements ShardSleep, FileDescriptorWatch {
    private final PortPoller poller = new PortPoller();

    @Override
    public void await(final long nanos) {
        poller.await(nanos == PipelineShard.UNTIL_WOKEN ? PortPoller.FOREVER : nanos);
    }

    @Override
    public void wake() {
        poller.wake();
    }

    @Override
    public FileDescriptorWatch watch() {
        return this;
    }

    @Override
    public void add(final int fd, final boolean packetSocket) {
        if (packetSocket) {
            poller.addPacketSocket(fd);
        } else {
            poller.add(fd);
        }
    }

    @Override
    public void remove(final int fd) {
        poller.remove(fd);
    }

    /** Its epoll set and eventfd, once the shard's thread has ended (or never ran). */
    @Override
    public void close() {
        poller.close();
    }
}
