package io.trimswitch.live;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.live.gauges.LiveGauges;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A running switch makes no garbage in steady state: its gauges' thread (ten samples a second) and its pipeline
 * threads allocate next to nothing per sample, idle and while forwarding, as the JVM counts each thread's allocations.
 */
@Tag("host-timing")
class SteadyStateAllocationTest {
    /** What a sample may allocate: nothing, but for a stray JIT deoptimisation's boxes over the whole measurement. */
    private static final long BYTES_PER_SAMPLE = 64;
    /** An idle pipeline thread on UDP ports: its event loop's polling, a few hundred bytes a sample at most. */
    private static final long PIPELINE_IDLE_BYTES = 1024;
    private static final int VNI = 42;

    @TempDir
    Path dir;

    private LiveSwitch live;
    private final DatagramChannel[] hosts = new DatagramChannel[3];

    @AfterEach
    void stop() throws Exception {
        if (live != null) {
            live.stop();
        }
        for (final DatagramChannel host : hosts) {
            if (host != null) {
                host.close();
            }
        }
    }

    @Test
    void theGaugesAndPipelineShardsAllocateNothingPerSampleIdleAndUnderTraffic() throws Exception {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM does not count allocations per thread");
        threads.setThreadAllocatedMemoryEnabled(true);
        start();
        final Map<String, Thread> watched = switchThreads();
        assertTrue(watched.containsKey(LiveGauges.THREAD_NAME) && watched.size() >= 2, "the gauges' and a pipeline thread: " + watched.keySet());

        // Warm: the JIT has compiled the paths, the tables have grown, the first samples have made what they keep.
        traffic(3_000);
        Thread.sleep(2_000);

        final Map<String, Long> idle = allocatedPerSample(threads, watched, 2_000, false);
        final Map<String, Long> loaded = allocatedPerSample(threads, watched, 2_000, true);
        idle.forEach((thread, bytes) -> assertTrue(bytes <= (thread.equals(LiveGauges.THREAD_NAME) ? BYTES_PER_SAMPLE : PIPELINE_IDLE_BYTES),
            thread + " allocated " + bytes + " B per sample idle; idle " + idle + ", forwarding " + loaded));
        // UDP ports receive through Netty, which makes a datagram object and an address per datagram: only the gauges are held to
        // nothing under traffic here; interface ports' pipeline threads are (InterfacePortsCountersTest).
        assertTrue(loaded.get(LiveGauges.THREAD_NAME) <= BYTES_PER_SAMPLE, "the gauges allocated per sample, forwarding: " + loaded);
    }

    /** Bytes each thread allocated over {@code millis}, divided by the gauges' samples in that time; with traffic if {@code load}. */
    private Map<String, Long> allocatedPerSample(final com.sun.management.ThreadMXBean threads, final Map<String, Thread> watched,
        final long millis, final boolean load) throws Exception {
        final Map<String, Long> before = new LinkedHashMap<>();
        watched.forEach((name, thread) -> before.put(name, threads.getThreadAllocatedBytes(thread.threadId())));
        final AtomicBoolean sending = new AtomicBoolean(load);
        final Thread sender = Thread.ofPlatform().start(() -> {
            while (sending.get()) {
                traffic(200);
            }
        });
        Thread.sleep(millis);
        sending.set(false);
        sender.join();
        final long samples = millis / LiveGauges.PERIOD_MILLIS;
        final Map<String, Long> perSample = new LinkedHashMap<>();
        watched.forEach((name, thread) -> perSample.put(name, (threads.getThreadAllocatedBytes(thread.threadId()) - before.get(name)) / samples));
        return perSample;
    }

    private Map<String, Thread> switchThreads() {
        final Map<String, Thread> found = new LinkedHashMap<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(LiveGauges.THREAD_NAME) || thread.getName().contains("pipelines")) {
                found.put(thread.getName(), thread);
            }
        }
        return found;
    }

    private void start() throws Exception {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4));
        settings = settings.withRealtime(x -> x.withIdle(Settings.Idle.YIELD));
        settings = settings.withMetrics(x -> x.withAddress(null).withCountersFile(dir.resolve("switch.counters").toString()));
        for (int port = 0; port < hosts.length; port++) {
            hosts[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            final java.util.List<Settings.Port> ports = new java.util.ArrayList<>(settings.ports());
            ports.add(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withVni(VNI)
                .withRemote("127.0.0.1:" + ((InetSocketAddress) hosts[port].getLocalAddress()).getPort()));
            settings = settings.withPorts(ports);
        }
        live = new LiveSwitch(settings);
        live.start();
    }

    /** {@code frames} 1000-byte frames from host 0 to host 1 (learned once, then forwarded), and host 1's answer. */
    private void traffic(final int frames) {
        try {
            for (int i = 0; i < frames; i++) {
                send(i % 2 == 0 ? 0 : 1, i % 2 == 0 ? 0x0200_0000_00AAL : 0x0200_0000_00BBL, i % 2 == 0 ? 0x0200_0000_00BBL : 0x0200_0000_00AAL);
            }
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private final ByteBuffer datagram = ByteBuffer.allocateDirect(VxlanHeader.LENGTH + 1000);

    private synchronized void send(final int port, final long source, final long destination) throws java.io.IOException {
        final UnsafeBuffer bytes = new UnsafeBuffer(datagram);
        VxlanHeader.write(bytes, 0, VNI);
        WorkloadFrames.writeData(bytes, VxlanHeader.LENGTH, 1000, 0, 1, 0, 0, 0, 9999);
        EthernetHeader.source(bytes, VxlanHeader.LENGTH, source);
        EthernetHeader.destination(bytes, VxlanHeader.LENGTH, destination);
        datagram.clear();
        assertEquals(datagram.capacity(), hosts[port].send(datagram, live.localAddress(port)));
    }
}
