package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.HtsimExperiment;
import io.trimswitch.uet.UetSettings;

/** An htsim experiment (a fat tree, its flows, its switches) run with NDP hosts ({@code uet} null) or UET hosts of {@code uet}. */
public record HtsimRun(HtsimExperiment experiment, UetSettings uet) {
}
