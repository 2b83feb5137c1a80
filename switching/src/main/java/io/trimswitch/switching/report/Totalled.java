package io.trimswitch.switching.report;

import java.util.Map;

/** A report that states a run's {@link RunReport.Totals} first: each of them read by its name, as the JSON has them. */
public interface Totalled {
    RunReport.Totals totals();

    default long sent() {
        return totals().sent();
    }

    default long deliveredWhole() {
        return totals().deliveredWhole();
    }

    default long deliveredHeader() {
        return totals().deliveredHeader();
    }

    default long dropped() {
        return totals().dropped();
    }

    default boolean conservation() {
        return totals().conservation();
    }

    default RunReport.Trims trims() {
        return totals().trims();
    }

    default Map<String, Long> drops() {
        return totals().drops();
    }

    default RunReport.Goodput goodput() {
        return totals().goodput();
    }

    default Integer flowsCompleted() {
        return totals().flowsCompleted();
    }

    default RunReport.Control control() {
        return totals().control();
    }
}
