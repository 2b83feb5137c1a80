package io.trimswitch.ndp;

import java.util.ArrayList;
import java.util.List;

/** What the state machines sent and asked to be woken for, in order: a driver that only records. */
final class Recorder implements NdpFrames, NdpTimers {
    record Frame(int kind, int flow, int sequence, int pull, long now) {
    }

    record Wakeup(String what, long time, int arg) {
    }

    final List<Frame> frames = new ArrayList<>();
    final List<Wakeup> wakeups = new ArrayList<>();

    @Override
    public void transmit(final int kind, final int flow, final int sequence, final int pull, final long now) {
        frames.add(new Frame(kind, flow, sequence, pull, now));
    }

    @Override
    public void retransmitAt(final long time, final int flow) {
        wakeups.add(new Wakeup("rto", time, flow));
    }

    @Override
    public void pullAt(final long time, final int link) {
        wakeups.add(new Wakeup("pull", time, link));
    }

    List<Frame> ofKind(final int kind) {
        return frames.stream().filter(frame -> frame.kind() == kind).toList();
    }

    List<Integer> sequencesOf(final int kind) {
        return ofKind(kind).stream().map(Frame::sequence).toList();
    }

    List<Wakeup> wakeups(final String what) {
        return wakeups.stream().filter(wakeup -> wakeup.what().equals(what)).toList();
    }

    /** Flows of fixed sizes and one initial window. */
    static NdpFlows flows(final int window, final int... sizes) {
        return new NdpFlows() {
            @Override
            public int flows() {
                return sizes.length;
            }

            @Override
            public int size(final int flow) {
                return sizes[flow];
            }

            @Override
            public int window(final int flow) {
                return Math.min(window, sizes[flow]);
            }
        };
    }
}
