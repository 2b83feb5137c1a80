package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every option's help says what it is when not given, so that --help, the man pages and completion answer a user alone. */
class HelpShowsDefaultsTest {
    /** picocli's own help command, whose options are its own. */
    private static final Set<String> NOT_YET = Set.of("help");

    @Test
    void everyOptionOfEveryCommandNamesItsDefault() {
        final List<String> silent = new ArrayList<>();
        for (final Map.Entry<String, CommandLine> command : TrimswitchCommand.tree().getSubcommands().entrySet()) {
            if (NOT_YET.contains(command.getKey())) {
                continue;
            }
            for (final OptionSpec option : command.getValue().getCommandSpec().options()) {
                if (option.usageHelp() || option.versionHelp()) {
                    continue;
                }
                final String description = String.join(" ", option.description()).toLowerCase(Locale.ROOT);
                if (!description.contains("default") && !description.contains("required")) {
                    silent.add(command.getKey() + " " + option.longestName());
                }
            }
        }
        assertTrue(silent.isEmpty(), "options whose help does not name their default: " + silent);
    }

    @Test
    void theBuildWritesAManPagePerCommandAndACompletionScript(@TempDir final Path target) throws IOException {
        ManualAndCompletion.main(new String[] {target.toString()});
        for (final String command : new String[] {"trimswitch", "trimswitch-scenario", "trimswitch-evaluate", "trimswitch-replay", "trimswitch-fabric"}) {
            assertTrue(Files.readString(target.resolve("man-adoc").resolve(command + ".adoc")).contains("== Options") || command.equals("trimswitch"),
                command);
        }
        final String completion = Files.readString(target.resolve("completion/trimswitch"));
        assertTrue(completion.contains("--shard") && completion.contains("--pcap-dir") && completion.contains("complete -F"), "completion script");
    }
}
