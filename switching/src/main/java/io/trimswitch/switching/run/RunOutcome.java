package io.trimswitch.switching.run;

/**
 * What a run left behind: the switch whose counters tell the story, how many packets were still inside
 * it at the end (counted as dropped "in flight at end"), and buffers never returned (must be 0).
 */
public record RunOutcome(SwitchRun source, long inFlightAtEnd, int leakedBuffers) {
}
