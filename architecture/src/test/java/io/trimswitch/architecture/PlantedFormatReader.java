package io.trimswitch.architecture;

import io.trimswitch.network.htsim.HtsimTopology;

/** A class that reads a topology file: what {@link NetworkRoomsTest} plants in the topologies' place. */
final class PlantedFormatReader {
    private PlantedFormatReader() {
    }

    static String nodesOf(final HtsimTopology file) {
        return file.toString();
    }
}
