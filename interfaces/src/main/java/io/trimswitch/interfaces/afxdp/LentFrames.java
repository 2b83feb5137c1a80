package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.packet.UmemShare;

/**
 * The pool buffers one AF_XDP socket has lent the kernel: in its fill ring or receive ring (to receive into), or in its
 * send ring until the completion ring gives them back. What is still lent when the socket closes goes back to the pool
 * then, so that a port removed, a link gone down or an interface deleted leaves the pool's count of buffers in use exact.
 * The socket's thread alone writes it.
 */
final class LentFrames {
    private final UmemShare share;
    private final boolean[] lent;
    private int count;

    LentFrames(final UmemShare share) {
        this.share = share;
        this.lent = new boolean[share.count()];
    }

    void lend(final int handle) {
        lent[share.index(handle)] = true;
        count++;
    }

    /** The kernel gave {@code handle} back (received into it, or sent it). */
    void returned(final int handle) {
        final int index = share.index(handle);
        if (!lent[index]) {
            throw new IllegalStateException("UMEM frame " + handle + " came back from the kernel without being lent");
        }
        lent[index] = false;
        count--;
    }

    /** How many are lent. */
    int count() {
        return count;
    }

    /** Once the socket has closed: every buffer still lent, back to the pool. */
    void releaseAll() {
        for (int index = 0; index < lent.length && count > 0; index++) {
            if (lent[index]) {
                lent[index] = false;
                count--;
                share.release(share.handleAt((long) index * UmemShare.CHUNK));
            }
        }
    }
}
