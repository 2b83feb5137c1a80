package io.trimswitch.sockets;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.ScheduledFuture;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The HTTP server behind {@code /metrics}, on Netty: one event-loop thread, every connection closed on any error, at
 * most {@link #MAX_CONNECTIONS} open (a new one closes the oldest that is not being answered), and each given
 * {@link #REQUEST_DEADLINE_MS} for its next request. So a client that resets, stays silent, trickles bytes or
 * opens thousands of connections costs the switch a bounded number of descriptors and bytes, and a scraper that
 * asks is answered at once. The JDK's own server kept a socket and its buffers for every client that reset.
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** Connections held at once: far more than the scrapers of a switch, far fewer than the process's descriptors. */
    public static final int MAX_CONNECTIONS = 64;
    /**
     * Netty looks for the loopback interface once, and warns on stderr where it is down, as in a namespace just made; the
     * endpoint binds its address whatever it finds. Held here: java.util.logging keeps only weak references to loggers.
     */
    private static final java.util.logging.Logger LOOPBACK_LOOKUP = quiet("io.netty.util.NetUtilInitializations");
    /** A connection that has not sent its whole next request within this is closed. */
    public static final long REQUEST_DEADLINE_MS = 5_000;
    /** Connections the kernel queues for the event loop: held by the kernel, not as descriptors of the switch. */
    private static final int BACKLOG = 1024;
    private static final int MAX_REQUEST_LINE = 4096;
    private static final int MAX_HEADERS = 8192;
    /** A scrape has no body; a request that carries one this long is refused. */
    private static final int MAX_BODY = 8192;

    private final EventLoopGroup loop;
    private final Channel server;
    private final Supplier<MetricSnapshots> snapshots;
    private final EventLog log;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    /** The open connections, oldest first; touched only on the event loop. */
    private final ArrayDeque<Channel> open = new ArrayDeque<>();

    public MetricsEndpoint(final InetSocketAddress address, final Supplier<MetricSnapshots> snapshots, final Consumer<String> log) throws IOException {
        this.snapshots = snapshots;
        this.log = new EventLog(log, System::nanoTime);
        this.loop = new MultiThreadIoEventLoopGroup(1, runnable -> {
            final Thread thread = new Thread(runnable, "trimswitch-metrics");
            thread.setDaemon(true);
            return thread;
        }, NioIoHandler.newFactory());
        try {
            this.server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(final SocketChannel channel) {
                        admit(channel);
                        channel.pipeline().addLast(new HttpServerCodec(MAX_REQUEST_LINE, MAX_HEADERS, MAX_HEADERS),
                            new HttpObjectAggregator(MAX_BODY, true), new Scrape());
                    }
                })
                .bind(address).syncUninterruptibly().channel();
        } catch (final Exception e) {
            // Netty rethrows the bind's checked exception (address in use) as it is.
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e instanceof IOException io ? io : new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Connections open now (read on the event loop; for tests). */
    public int openConnections() {
        return loop.submit(open::size).syncUninterruptibly().getNow();
    }

    /** Takes a new connection in: the oldest one goes when the endpoint holds its most. */
    private void admit(final Channel channel) {
        if (open.size() >= MAX_CONNECTIONS) {
            final Channel oldest = open.pollFirst();
            log.event("connections", "more than " + MAX_CONNECTIONS + " connections at once: the oldest closed");
            oldest.close();
        }
        open.addLast(channel);
        channel.closeFuture().addListener(closed -> open.remove(channel));
    }

    /** One request after another on a connection, each within the deadline; any error closes it. */
    private final class Scrape extends SimpleChannelInboundHandler<FullHttpRequest> {
        private ScheduledFuture<?> deadline;

        @Override
        public void channelActive(final ChannelHandlerContext ctx) {
            awaitRequest(ctx);
            ctx.fireChannelActive();
        }

        private void awaitRequest(final ChannelHandlerContext ctx) {
            deadline = ctx.executor().schedule(() -> ctx.close(), REQUEST_DEADLINE_MS, TimeUnit.MILLISECONDS);
        }

        @Override
        protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request) {
            deadline.cancel(false);
            if (request.decoderResult().isFailure()) {
                log.event("bad-request", "a request that is not HTTP: " + request.decoderResult().cause().getClass().getSimpleName());
                respond(ctx, plain(HttpResponseStatus.BAD_REQUEST, "not an HTTP request\n"), false);
                return;
            }
            final String path = request.uri().split("\\?", 2)[0];
            final boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (!"/metrics".equals(path) && !"/".equals(path)) {
                respond(ctx, plain(HttpResponseStatus.NOT_FOUND, "the metrics are at /metrics\n"), keepAlive);
            } else if (!HttpMethod.GET.equals(request.method()) && !HttpMethod.HEAD.equals(request.method())) {
                respond(ctx, plain(HttpResponseStatus.METHOD_NOT_ALLOWED, "GET /metrics\n"), keepAlive);
            } else {
                final ByteBuf body = ctx.alloc().buffer();
                try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
                    writer.write(out, snapshots.get());
                } catch (final IOException | RuntimeException e) {
                    body.release();
                    log.event("collect", "a scrape failed: " + e);
                    respond(ctx, plain(HttpResponseStatus.INTERNAL_SERVER_ERROR, "the counters could not be read\n"), false);
                    return;
                }
                final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, writer.getContentType());
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
                if (HttpMethod.HEAD.equals(request.method())) {
                    body.clear();
                }
                respond(ctx, response, keepAlive);
            }
        }

        private void respond(final ChannelHandlerContext ctx, final FullHttpResponse response, final boolean keepAlive) {
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response).addListener(written -> {
                if (written.isSuccess()) {
                    awaitRequest(ctx);
                } else {
                    ctx.close();
                }
            });
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx) {
            if (deadline != null) {
                deadline.cancel(false);
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
            // A reset, a broken pipe, a request too large: the connection ends here, whatever it was.
            log.event(cause.getClass().getSimpleName(), "a connection ended with " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            ctx.close();
        }
    }

    private static FullHttpResponse plain(final HttpResponseStatus status, final String text) {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            io.netty.buffer.Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        return response;
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static java.util.logging.Logger quiet(final String name) {
        final java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.SEVERE);
        return logger;
    }
}
