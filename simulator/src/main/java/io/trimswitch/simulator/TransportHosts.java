package io.trimswitch.simulator;

/** A transport's end hosts as runs drive them: started by a trigger, telling who listens of completed flows. */
public interface TransportHosts extends EndHosts {
    /** Who learns of flows completing: an htsim experiment's triggers, which start flows when others end. */
    interface Completions {
        void completed(int flow, long now);
    }

    /** {@code listener} learns of every flow that completes from the next run on. */
    void onCompletion(Completions listener);

    /** A flow that waited starts at {@code now}; its completion time counts from there. */
    void startNow(int flow, long now);

    /** When message {@code message} of {@code flow} completed; -1 if it did not. A flow without messages is one. */
    default long messageCompletionPicos(final int flow, final int message) {
        return message == 0 ? completionPicos(flow) : -1;
    }
}
