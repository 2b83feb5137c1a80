package io.trimswitch.live;

/** The host's own tools (ip, ethtool, sysctl) that the tests needing root set interfaces and namespaces up with. */
final class HostCommands {
    private HostCommands() {
    }

    /** Runs {@code words}, its output discarded; its exit status. */
    static int run(final String... words) throws Exception {
        return new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }
}
