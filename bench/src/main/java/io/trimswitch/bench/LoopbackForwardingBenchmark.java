package io.trimswitch.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.live.LiveSwitch;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Forwarding rate through the switch over loopback UDP, next to the I/O ceiling measured in the same
 * run: a bare Netty epoll forwarder with the same batching (recvmmsg in, one flush per read batch out).
 * A Netty sender blasts VXLAN datagrams at the forwarder's first port; a Netty receiver counts what
 * arrives from its second. Frames are not trimmable and the switch's port rate is far above what
 * loopback carries, so what is measured is forwarding. Trials alternate between the two forwarders.
 *
 * <pre>bench/jmh --main io.trimswitch.bench.LoopbackForwardingBenchmark</pre>
 */
public final class LoopbackForwardingBenchmark {
    private static final int BATCH = 32;
    private static final int DATAGRAM_ROOM = 2048 + VxlanHeader.LENGTH;
    private static final long DESTINATION_MAC = 0x0200_0000_0002L;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    private LoopbackForwardingBenchmark() {
    }

    public static void main(final String[] args) throws Exception {
        final double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        final int trials = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.println("frame bytes, forwarder, trial, datagrams/s");
        for (final int frameBytes : new int[] {64, 1500}) {
            double bare = 0;
            double trimswitch = 0;
            for (int trial = 1; trial <= trials; trial++) {
                final double bareRate = measure(frameBytes, seconds, false);
                final double switchRate = measure(frameBytes, seconds, true);
                System.out.printf(Locale.ROOT, "%d, bare-netty, %d, %.0f%n%d, trimswitch, %d, %.0f%n", frameBytes, trial, bareRate, frameBytes,
                    trial, switchRate);
                bare += bareRate;
                trimswitch += switchRate;
            }
            System.out.printf(Locale.ROOT, "%d B frames: bare Netty forwarder %.3f M/s, trimswitch %.3f M/s: %.2f of the bare forwarder%n",
                frameBytes, bare / trials / 1e6, trimswitch / trials / 1e6, trimswitch / bare);
        }
    }

    private static double measure(final int frameBytes, final double seconds, final boolean throughSwitch) throws Exception {
        final EventLoopGroup receiverLoop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        final EventLoopGroup forwarderLoop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        final EventLoopGroup senderLoop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        LiveSwitch live = null;
        try {
            final long[] received = new long[1];
            final Channel receiver = bind(receiverLoop, new SimpleChannelInboundHandler<DatagramPacket>() {
                @Override
                protected void channelRead0(final ChannelHandlerContext context, final DatagramPacket packet) {
                    received[0]++;
                }
            });
            final InetSocketAddress receiverAddress = (InetSocketAddress) receiver.localAddress();
            final InetSocketAddress ingress;
            if (throughSwitch) {
                live = new LiveSwitch(switchSettings(receiverAddress));
                live.start();
                ingress = live.localAddress(0);
            } else {
                ingress = bareForwarder(forwarderLoop, receiverAddress);
            }
            final Channel sender = bind(senderLoop, new SimpleChannelInboundHandler<DatagramPacket>() {
                @Override
                protected void channelRead0(final ChannelHandlerContext context, final DatagramPacket packet) {
                }
            });
            final ByteBuf template = datagram(frameBytes);
            final boolean[] stop = new boolean[1];
            final Runnable blast = new Runnable() {
                @Override
                public void run() {
                    if (stop[0]) {
                        return;
                    }
                    for (int i = 0; i < BATCH && sender.isWritable(); i++) {
                        sender.write(new DatagramPacket(template.retainedDuplicate(), ingress), sender.voidPromise());
                    }
                    sender.flush();
                    sender.eventLoop().execute(this);
                }
            };
            sender.eventLoop().execute(blast);
            Thread.sleep(1000);
            final long before = receiverLoop.submit(() -> received[0]).get();
            final long start = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            final long after = receiverLoop.submit(() -> received[0]).get();
            final double elapsed = (System.nanoTime() - start) / 1e9;
            sender.eventLoop().submit(() -> stop[0] = true).get();
            template.release();
            return (after - before) / elapsed;
        } finally {
            if (live != null) {
                live.stop();
            }
            senderLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
            forwarderLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
            receiverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
        }
    }

    /** The I/O ceiling: every datagram in goes straight back out, flushed once per read batch. */
    private static InetSocketAddress bareForwarder(final EventLoopGroup loop, final InetSocketAddress to) throws InterruptedException {
        final Channel[] out = new Channel[1];
        out[0] = bind(loop, new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(final ChannelHandlerContext context, final DatagramPacket packet) {
            }
        });
        final Channel in = bind(loop, new SimpleChannelInboundHandler<DatagramPacket>(false) {
            @Override
            protected void channelRead0(final ChannelHandlerContext context, final DatagramPacket packet) {
                out[0].write(new DatagramPacket(packet.content(), to), out[0].voidPromise());
            }

            @Override
            public void channelReadComplete(final ChannelHandlerContext context) {
                out[0].flush();
            }
        });
        return (InetSocketAddress) in.localAddress();
    }

    private static Channel bind(final EventLoopGroup loop, final SimpleChannelInboundHandler<DatagramPacket> handler) throws InterruptedException {
        return new Bootstrap().group(loop).channel(EpollDatagramChannel.class)
            .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, DATAGRAM_ROOM)
            .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(DATAGRAM_ROOM * BATCH))
            .option(ChannelOption.SO_RCVBUF, 4 << 20)
            .option(ChannelOption.SO_SNDBUF, 4 << 20)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20))
            .handler(handler).bind(LOOPBACK).sync().channel();
    }

    /** Two ports: the sender's and the receiver's; the frames' destination lives behind port 1. */
    private static Settings switchSettings(final InetSocketAddress receiver) {
        final List<Settings.Port> ports = new ArrayList<>();
        for (final String remote : new String[] {null, "127.0.0.1:" + receiver.getPort()}) {
            ports.add(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote(remote).withRemotePort(4789));
        }
        return Settings.DEFAULTS.withFabric(f -> f.withPipelines(1).withPortsPerPipeline(2).withDataQueuePackets(1024))
            .withRealtime(r -> r.withIdle(Settings.Idle.YIELD)).withMetrics(m -> m.withAddress(null)).withPorts(ports)
            .withForwarding(f -> f.withStaticMacs(List.of(new Settings.StaticMac("02:00:00:00:00:02", 1))));
    }

    /** A VXLAN datagram carrying a frame that is not trimmable (UDP to port 9999, DSCP 0). */
    private static ByteBuf datagram(final int frameBytes) {
        final byte[] bytes = new byte[VxlanHeader.LENGTH + frameBytes];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        VxlanHeader.write(buffer, 0, 42);
        WorkloadFrames.writeData(buffer, VxlanHeader.LENGTH, frameBytes, 0, 1, 0, 0, 0, 9999);
        EthernetHeader.destination(buffer, VxlanHeader.LENGTH, DESTINATION_MAC);
        return Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    }
}
