package io.trimswitch.uet;

/**
 * The flows a host's state machines serve: how many, and each one's length in packets. A flow may be a connection that
 * carries several messages, sent one after the other under one congestion state; by default it carries one.
 */
public interface UetFlows {
    int flows();

    int size(int flow);

    /** The messages {@code flow} carries, in the order they are sent. */
    default int messages(final int flow) {
        return 1;
    }

    /** Where message {@code message} of {@code flow} ends: the number of the flow's packets up to and including it. */
    default int messageEnd(final int flow, final int message) {
        return size(flow);
    }
}
