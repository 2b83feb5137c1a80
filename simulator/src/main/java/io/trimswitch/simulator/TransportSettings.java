package io.trimswitch.simulator;

/** A transport's settings, parsed and checked from its block; what a fabric reads of them besides the transport itself. */
public interface TransportSettings {
    /** Whether a matrix's lines of one id are messages queued on one connection, or each line a flow of its own. */
    default boolean connectionReuse() {
        return false;
    }
}
