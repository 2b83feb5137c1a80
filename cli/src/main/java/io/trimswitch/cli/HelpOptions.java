package io.trimswitch.cli;

import picocli.CommandLine.Model.OptionSpec;

/** {@code -h, --help} and {@code -V, --version}, as picocli's standard help options, last in a command's usage. */
final class HelpOptions extends OptionGroup {
    HelpOptions() {
        option(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit."));
        option(OptionSpec.builder("-V", "--version").versionHelp(true).description("Print version information and exit."));
    }
}
