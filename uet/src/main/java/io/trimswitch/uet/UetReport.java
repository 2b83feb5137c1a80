package io.trimswitch.uet;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What Ultra Ethernet hosts did, and the numbers they were derived with: the network's unloaded round trip and
 * bandwidth-delay product, NSCC's target delay, the ECN thresholds and the timeout: the "uet" section of a fabric's report.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UetReport(String loadBalancer, int entropies, double rttUs, int bdpPackets, double targetDelayUs, int ecnLowPackets,
    int ecnHighPackets, double rtoUs, long nacks, long lastHopNacks, long timeouts, long quickAdapts, long ecnMarked, Rccc rccc) {

    /**
     * With the receivers' credit (--cc receiver or both): which, the PULLs the receivers sent, the credit they granted, and
     * whether the oversubscribed receiver CC set their pull rates.
     */
    public record Rccc(String cc, long pulls, long creditBytes, boolean oversubscribedCc) {
    }
}
