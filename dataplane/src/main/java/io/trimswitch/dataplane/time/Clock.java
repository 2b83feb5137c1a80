package io.trimswitch.dataplane.time;

/**
 * The source of "now" for a runtime. Components never hold one: the runtime reads its clock once
 * per duty cycle or event and passes the time in, so the same component runs in virtual and in
 * real time.
 */
@FunctionalInterface
public interface Clock {
    /** The current time in picoseconds since the clock's epoch. */
    long nowPicos();
}
