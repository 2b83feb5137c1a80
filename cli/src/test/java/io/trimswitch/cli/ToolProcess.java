package io.trimswitch.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The tool in a JVM of its own, as a shell starts it: for what only a separate process shows (signals, start-up under load). */
final class ToolProcess {
    private ToolProcess() {
    }

    /** Starts {@code trimswitch args} from the classes under test; its output and errors go to {@code log}. */
    static Process start(final Path log, final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), TrimswitchCommand.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
