package io.trimswitch.architecture;

import io.trimswitch.switching.report.RunReport;

/** A class that names a run's report: what {@link SwitchingRoomsTest} plants in the assembly's place. */
final class PlantedReportUser {
    private PlantedReportUser() {
    }

    static String mechanismOf(final RunReport report) {
        return report.toString();
    }
}
