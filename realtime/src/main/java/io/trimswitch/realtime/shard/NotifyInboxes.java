package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.dataplane.util.UntouchedMemory;
import io.trimswitch.recirc.NotifyChannel;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * NOTIFYs between threads: one lock-free inbox (an Agrona many-to-one ring) per ingress pipeline, which
 * every recirculation thread writes and only that pipeline's thread reads. A message is the congested
 * egress port and the switch time the NOTIFY is due.
 */
public final class NotifyInboxes implements NotifyChannel {
    private static final int MESSAGE_TYPE = 1;
    private static final int MESSAGE_BYTES = Long.BYTES + Integer.BYTES;
    private static final int INBOX_BYTES = 1 << 20;

    private final ManyToOneRingBuffer[] inboxes;
    private final AtomicLong lost = new AtomicLong();

    public NotifyInboxes(final int pipelines) {
        this.inboxes = new ManyToOneRingBuffer[pipelines];
        for (int pipeline = 0; pipeline < pipelines; pipeline++) {
            // Resident as the ring's messages reach its pages: a switch that trims little holds little of its 1 MiB.
            inboxes[pipeline] = new ManyToOneRingBuffer(UntouchedMemory.buffer(BitUtil.align(INBOX_BYTES, 64) + RingBufferDescriptor.TRAILER_LENGTH));
        }
    }

    @Override
    public void send(final int egressPort, final int pipeline, final long due) {
        final ManyToOneRingBuffer inbox = inboxes[pipeline];
        final int index = inbox.tryClaim(MESSAGE_TYPE, MESSAGE_BYTES);
        if (index < 0) {
            // The pipeline's thread has stopped reading; counted so that the report shows it.
            lost.incrementAndGet();
            return;
        }
        inbox.buffer().putLong(index, due);
        inbox.buffer().putInt(index + Long.BYTES, egressPort);
        inbox.commit(index);
    }

    /** The reading side of {@code pipeline}'s inbox, for that pipeline's thread only. */
    public Reader reader(final int pipeline) {
        return new Reader(inboxes[pipeline]);
    }

    /** Moves what waits in one inbox into a FIFO its pipeline's thread owns, in arrival order. */
    public static final class Reader implements MessageHandler {
        private final ManyToOneRingBuffer inbox;
        private final TimedIntFifo pending = new TimedIntFifo(1024);

        private Reader(final ManyToOneRingBuffer inbox) {
            this.inbox = inbox;
        }

        int drain() {
            return inbox.read(this);
        }

        @Override
        public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
            // Several recirculation threads write one inbox: their NOTIFYs are kept in due order, as virtual time applies them.
            pending.addInTimeOrder(buffer.getLong(index), buffer.getInt(index + Long.BYTES));
        }

        /** NOTIFYs received and not yet applied: due time and egress port. */
        TimedIntFifo pending() {
            return pending;
        }
    }

    /** NOTIFYs that found an inbox full. */
    long lost() {
        return lost.get();
    }
}
