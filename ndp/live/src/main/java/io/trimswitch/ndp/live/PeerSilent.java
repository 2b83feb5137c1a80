package io.trimswitch.ndp.live;

/** A live host's peer stopped answering: its flows cannot finish. The message is one line for the user. */
public final class PeerSilent extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient HostReport report;

    public PeerSilent(final String message, final HostReport report) {
        super(message);
        this.report = report;
    }

    /** What the host had done when it gave up. */
    public HostReport report() {
        return report;
    }
}
