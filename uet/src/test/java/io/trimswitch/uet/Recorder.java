package io.trimswitch.uet;

import java.util.ArrayList;
import java.util.List;

/** What the state machines sent and asked for, in order: a driver that only records. */
final class Recorder implements UetFrames, UetTimers {
    record Frame(String kind, int flow, int psn, int cumulative, int received, int entropy, boolean flag, boolean marked, int sackBase,
        long sackBits, long now) {
    }

    final List<Frame> frames = new ArrayList<>();
    final List<Long> timers = new ArrayList<>();
    final List<Long> pullTimers = new ArrayList<>();
    final List<Long> congestionTimers = new ArrayList<>();
    final List<Integer> ready = new ArrayList<>();

    @Override
    public void data(final int flow, final int psn, final int entropy, final boolean ackRequest, final long pullTarget, final long now) {
        frames.add(new Frame("data", flow, psn, 0, 0, entropy, ackRequest, false, 0, pullTarget, now));
    }

    @Override
    public void pull(final int flow, final long pullNumber, final long now) {
        frames.add(new Frame("pull", flow, 0, 0, 0, 0, false, false, 0, pullNumber, now));
    }

    @Override
    public void pullAt(final long time, final int host) {
        pullTimers.add(time);
    }

    @Override
    public void congestionAt(final long time, final int host) {
        congestionTimers.add(time);
    }

    @Override
    public void ack(final int flow, final int psn, final int cumulative, final int received, final int entropy, final boolean ecnEcho,
        final int sackBase, final long sackBits, final long now) {
        frames.add(new Frame("ack", flow, psn, cumulative, received, entropy, false, ecnEcho, sackBase, sackBits, now));
    }

    @Override
    public void nack(final int flow, final int psn, final int cumulative, final int received, final int entropy, final boolean lastHop,
        final boolean ecnEcho, final long now) {
        frames.add(new Frame("nack", flow, psn, cumulative, received, entropy, lastHop, ecnEcho, 0, 0, now));
    }

    @Override
    public void ready(final int flow, final long now) {
        ready.add(flow);
    }

    @Override
    public void retransmitAt(final long time, final int flow) {
        timers.add(time);
    }

    List<Frame> of(final String kind) {
        return frames.stream().filter(frame -> frame.kind().equals(kind)).toList();
    }

    static UetFlows flows(final int... sizes) {
        return new UetFlows() {
            @Override
            public int flows() {
                return sizes.length;
            }

            @Override
            public int size(final int flow) {
                return sizes[flow];
            }
        };
    }
}
