package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.pipelines.ThreeMeterProfile;
import io.trimswitch.pipelines.TrimStateTable;
import io.trimswitch.realtime.shard.IngressStage;
import io.trimswitch.realtime.shard.NotifyInboxes;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.HandleRing;
import io.trimswitch.trafficmanager.TrafficManagerEvents;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.nio.ByteBuffer;

/**
 * One real-time ingress pipeline on one core, in packets per second. Before each invocation a burst of
 * frames has arrived (the ports' work) and the egress rings are empty (egress's work); timed is only the
 * pipeline's own: the agent takes each frame as its shard hands it over, through parse, forwarding lookup,
 * meters, trim decision and the offer to its egress port's ring.
 * Beside it, the meters and trim decision alone, and the baseline: a loop that only copies each frame.
 */
@State(Scope.Thread)
public class IngressPipelineBenchmark extends SwitchBenchmark {
    /** Frames per invocation: long enough that timing an invocation costs nothing. */
    static final int BURST = 1024;
    /** Egress ports the batch spreads over, so that no port's meter sees more than its rate. */
    private static final int EGRESS_PORTS = 16;

    @Param({"64", "1500"})
    public int packetBytes;

    private PacketPool pool;
    private AssembledSwitch assembly;
    private IngressStage agent;
    private final int[] handles = new int[BURST];
    private long packetTime;
    private int firstEgressPort;
    private long now;
    private final HandleRing.HandleConsumer discard = handle -> { };
    private IngressMeters meters;
    private TrimStateTable states;
    private final UnsafeBuffer transmit = new UnsafeBuffer(ByteBuffer.allocateDirect(PacketPool.SLOT_BYTES));

    @Setup
    public void setUp() {
        // Room for a whole burst in the egress rings: nothing is deflected, every packet is forwarded.
        final Settings settings = Settings.DEFAULTS.withOpenLoop().withWorkload(w -> w.withPacketBytes(packetBytes))
            .withFabric(f -> f.withDataQueuePackets(BURST)).withControl(c -> c.withMeterBurstBytes(16 * packetBytes)).validate();
        pool = new PacketPool(BURST);
        final TrafficManagerEvents unexpected = new TrafficManagerEvents() {
            @Override
            public void drop(final int handle, final io.trimswitch.dataplane.counters.DropReason reason, final long time) {
                throw new IllegalStateException("the benchmark's packets are never dropped, got " + reason);
            }

            @Override
            public void egressPending(final int port, final long time) {
            }

            @Override
            public void recirculationPending(final int pipeline, final long time) {
            }
        };
        final NotifyInboxes inboxes = new NotifyInboxes(settings.fabric().pipelines());
        assembly = new AssembledSwitch(settings, pool, CounterRegistry.inMemory(AssembledSwitch.counters(settings, 0)), HandleRing.factory(), unexpected, AssembledSwitch.TrafficManagerThreads.ONE,
            pipelines -> inboxes, AssembledSwitch.defaultForwarding(settings));
        firstEgressPort = settings.fabric().portsPerPipeline();
        agent = new IngressStage(assembly.pipeline(0), pool, inboxes.reader(0));
        for (int i = 0; i < BURST; i++) {
            handles[i] = pool.allocate();
            final int ingressPort = i % settings.fabric().portsPerPipeline();
            final int egressPort = firstEgressPort + i % EGRESS_PORTS;
            WorkloadFrames.writeData(pool.buffer(handles[i]), pool.offset(handles[i]), packetBytes, ingressPort, egressPort, i, 0, 10,
                settings.trim().ndpUdpPort());
            pool.length(handles[i], packetBytes);
            pool.ingressPort(handles[i], ingressPort);
            pool.flow(handles[i], i);
        }
        packetTime = new LinkRate(settings.portRateBps()).serialisation(packetBytes);
        meters = new ThreeMeterProfile(64, settings.portRateBps(), settings.halftimisticRateBps(), settings.pessimisticRateBps(),
            settings.meterBurstBytes());
        states = new TrimStateTable(64, Picos.fromMicros(6), Picos.fromMicros(24));
    }

    /** The ports' and egress's part, untimed: a burst has arrived, the egress rings are empty. */
    @Setup(Level.Invocation)
    public void burstArrives() {
        for (int port = 0; port < EGRESS_PORTS; port++) {
            ((HandleRing) assembly.port(firstEgressPort + port).dataQueue()).drain(discard, BURST);
        }
        for (final int handle : handles) {
            now += packetTime;
            pool.arrivalPicos(handle, now);
        }
    }

    /** The pipeline takes the burst as its shard hands it each packet, into the traffic manager. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public int ingressAgent() {
        int work = agent.drainInbox();
        for (final int handle : handles) {
            agent.accept(handle);
            work++;
        }
        return work;
    }

    /** The per-packet decision alone: the trim state at this instant, and the meter for it. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public int meterAndTrimDecision() {
        int trims = 0;
        for (int i = 0; i < BURST; i++) {
            now += packetTime;
            final int egress = i % EGRESS_PORTS;
            if (meters.shouldTrim(egress, states.state(egress, now), packetBytes, now)) {
                trims++;
            }
        }
        return trims;
    }

    /** Baseline: the least a forwarder does with a packet, copy it once. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public int baselineCopyOnly() {
        int copied = 0;
        for (final int handle : handles) {
            transmit.putBytes(0, pool.buffer(handle), pool.offset(handle), pool.length(handle));
            copied += pool.length(handle);
        }
        return copied;
    }
}
