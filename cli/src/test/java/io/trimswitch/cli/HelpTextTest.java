package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What {@code --help} and the man pages print reads whole: a command's description is written in sentences that picocli
 * wraps to the terminal, never broken by hand mid-sentence (which leaves ragged lines), and a parameter's label has no
 * dot, which AsciiDoc would read as markup ({@code FILE.csv} rendered as {@code FILE. _ csv_}).
 */
class HelpTextTest {
    @Test
    void everyDescriptionLineEndsASentence() {
        final List<String> ragged = new ArrayList<>();
        walk(TrimswitchCommand.tree(), command -> {
            if (command.userObject() instanceof picocli.CommandLine.HelpCommand) {
                return; // picocli's own
            }
            for (final String line : command.usageMessage().description()) {
                if (!line.isBlank() && !line.strip().matches("(?s).*[.:)!?]$")) {
                    ragged.add(command.qualifiedName() + ": '" + line + "'");
                }
            }
        });
        assertEquals(List.of(), ragged, "description lines broken by hand");
    }

    /** fabric runs leaf-spines and fat trees, of NDP and UET hosts; an option of two values shows each label once. */
    @Test
    void fabricsHelpNamesWhatItRunsAndTheEcnOptionShowsItsTwoValuesOnce() {
        for (final String command : new String[] {"fabric", "scenario"}) {
            final Cli.Result help = Cli.trimswitch(command, "--help");
            assertEquals(0, help.exit());
            org.junit.jupiter.api.Assertions.assertTrue(help.out().contains("[--ecn=LO HI]") && !help.out().contains("LO HI LO HI"), help.out());
        }
        final String fabric = Cli.trimswitch("fabric", "--help").out().replaceAll("\\s+", " ");
        org.junit.jupiter.api.Assertions.assertTrue(fabric.contains("switches and NDP or UET hosts in virtual time. A leaf-spine of NDP hosts, or an htsim fat tree (--topology, --matrix) of NDP or UET hosts"),
            fabric);
        org.junit.jupiter.api.Assertions.assertTrue(fabric.contains("--mtu=BYTES With --matrix: payload bytes per packet, htsim's -mtu, 64..8954;"), fabric);
    }

    @Test
    void noParameterLabelHasADot() {
        final List<String> dotted = new ArrayList<>();
        walk(TrimswitchCommand.tree(), command -> {
            for (final ArgSpec arg : command.args()) {
                if (arg.paramLabel().contains(".")) {
                    dotted.add(command.qualifiedName() + ": " + arg.paramLabel());
                }
            }
        });
        assertEquals(List.of(), dotted, "parameter labels with a dot");
    }

    private static void walk(final CommandLine command, final java.util.function.Consumer<CommandSpec> visit) {
        visit.accept(command.getCommandSpec());
        command.getSubcommands().values().forEach(sub -> walk(sub, visit));
    }
}
