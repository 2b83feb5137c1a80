package io.trimswitch.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * What a running switch does with the signals the JVM leaves at their default, which would end the process at once
 * and leave its counters file, socket and locks behind (SIGTERM, SIGINT and SIGHUP already run the clean stop):
 * SIGALRM, a timer that ran out ({@code timeout -s ALRM}), stops it cleanly as {@code ctl stop} does; SIGUSR1, which
 * log-rotating scripts send, is ignored: the switch writes only to the standard output and error it was given, and
 * has no log file to reopen.
 */
final class StopSignals {
    private StopSignals() {
    }

    /** From here on SIGALRM runs {@code stop}, and SIGUSR1 does nothing. */
    static void install(final Runnable stop) {
        handle("ALRM", signal -> stop.run());
        handle("USR1", SignalHandler.SIG_IGN);
    }

    private static void handle(final String name, final SignalHandler handler) {
        try {
            Signal.handle(new Signal(name), handler);
        } catch (final IllegalArgumentException e) {
            // A JVM that keeps the signal for itself (-Xrs, another platform) keeps its own handling.
        }
    }
}
