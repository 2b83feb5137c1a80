package io.trimswitch.sockets;

import io.netty.channel.unix.Errors;

/** A UDP port's socket errors: the first of each port is logged, the rest only counted (as {@code socketError}). */
final class SocketErrors {
    /** Linux's errno for a message too long for the path. */
    private static final int EMSGSIZE = 90;

    private final boolean[] reported;

    SocketErrors(final int ports) {
        this.reported = new boolean[ports];
    }

    /** EMSGSIZE: a segment does not fit the path's MTU. */
    static boolean tooLongForThePath(final Throwable cause) {
        return cause instanceof Errors.NativeIoException e && Math.abs(e.expectedErr()) == EMSGSIZE;
    }

    void reportOnce(final int port, final Throwable cause) {
        if (!reported[port]) {
            reported[port] = true;
            System.err.println("trimswitch: port " + port + ": socket error: " + cause.getMessage() + " (counted as socketError; later ones only counted)");
        }
    }
}
