package io.trimswitch.runtime;

import io.trimswitch.config.Settings;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PullPacerTest {
    /** The events the pacer and the host links ask for, as (time, type, argument). */
    private final List<long[]> scheduled = new ArrayList<>();
    private final Set<Integer> finished = new HashSet<>();

    private final NdpHosts.Switch recording = new NdpHosts.Switch() {
        @Override
        public void schedule(final long time, final int type, final int arg) {
            scheduled.add(new long[] {time, type, arg});
        }

        @Override
        public int allocate() {
            return PacketPool.NO_PACKET;
        }

        @Override
        public void inject(final int handle, final boolean control, final long now) {
        }

        @Override
        public void noBuffer(final int flow, final boolean control) {
        }

        @Override
        public PacketPool pool() {
            return null;
        }
    };

    private HostLinks links;
    private PullPacer pacer;

    private void build() {
        final SwitchSettings edited = new SwitchSettings();
        edited.fabric.pipelines = 1;
        edited.fabric.portsPerPipeline = 4;
        edited.workload.pattern = "incast:4->1";
        final Settings settings = edited.validate();
        final NdpFlowPlan plan = new NdpFlowPlan(settings, settings.pattern(), 120_000);
        links = new HostLinks(settings, plan);
        links.attach(recording);
        pacer = new PullPacer(settings.egressPorts(), plan.flows(), links, flow -> !finished.contains(flow));
        pacer.attach(recording);
    }

    private List<long[]> ofType(final int type) {
        return scheduled.stream().filter(event -> event[1] == type).toList();
    }

    @Test
    void aHostSendsOnePullPerPacketTimeWhateverTheNumberOfFlowsAsking() {
        build();
        final int link = 4;
        pacer.request(link, 0, 0);
        pacer.request(link, 1, 0);
        pacer.request(link, 2, 0);
        assertEquals(1, ofType(EventType.PULL_TICK).size(), "one tick pending per host, however many ask");
        pacer.tick(link, 0);
        pacer.tick(link, links.packetTime());
        pacer.tick(link, 2 * links.packetTime());
        final List<long[]> ticks = ofType(EventType.PULL_TICK);
        assertEquals(List.of(0L, links.packetTime(), 2 * links.packetTime()), ticks.stream().map(event -> event[0]).toList());
        // Three PULLs onto the host's link: the first frame schedules its arrival, the rest queue behind it.
        assertEquals(1, ofType(EventType.LINK_TO_SWITCH).size());
    }

    @Test
    void aFinishedFlowsRequestIsSkippedWithoutCostingAPacketTime() {
        build();
        final int link = 4;
        pacer.request(link, 0, 0);
        pacer.request(link, 1, 0);
        finished.add(0);
        pacer.tick(link, 0);
        // Flow 1 was pulled at once, and nothing waits: no further tick.
        assertEquals(1, ofType(EventType.PULL_TICK).size());
        assertEquals(1, ofType(EventType.LINK_TO_SWITCH).size());
        pacer.request(link, 1, 10);
        assertEquals(links.packetTime(), ofType(EventType.PULL_TICK).get(1)[0], "the next PULL waits one packet time after the last");
    }
}
