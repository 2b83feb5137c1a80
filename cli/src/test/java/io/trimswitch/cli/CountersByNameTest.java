package io.trimswitch.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code stats --counters sp1} and {@code ctl --counters sp1} find Mininet's switch sp1 by its name. */
class CountersByNameTest {
    @Test
    void aSwitchsNameFindsItsMininetCountersFileAndAPathStaysAPath() throws IOException {
        final String name = "byname" + ProcessHandle.current().pid();
        final Path mininet = io.trimswitch.live.settings.LiveSettings.findInRunDirectory("trimswitch-mininet-" + name + ".counters");
        Files.createDirectories(mininet.getParent());
        Files.createFile(mininet);
        try {
            assertEquals(mininet, CountersByName.find(Path.of(name)));
            assertEquals(Path.of("./" + name), CountersByName.find(Path.of("./" + name)), "a path is taken as it is");
            assertEquals(Path.of(name + "x"), CountersByName.find(Path.of(name + "x")), "a name that finds nothing is kept, for the error to name");
        } finally {
            Files.delete(mininet);
        }
    }
}
