package io.trimswitch.cli;

import io.trimswitch.config.Choice;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.evaluation.evaluate.Evaluation;
import io.trimswitch.evaluation.evaluate.Experiment;
import io.trimswitch.network.NetworkSettings;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes, at build time, the man pages' AsciiDoc ({@code target/man-adoc/trimswitch.adoc} and one per command, which
 * the build turns into {@code target/man/*.1}) and the bash and zsh completion script ({@code target/completion/trimswitch}),
 * from the command models the tool itself parses with, plus what only these need: each page's examples, and the words
 * an option that takes one of a few accepts, from the enums that parse them.
 */
public final class ManualAndCompletion {
    /** Each man page's EXAMPLES, by the command's qualified name. */
    static final Map<String, List<String>> EXAMPLES = Map.ofEntries(
        Map.entry("trimswitch", List.of(
            "trimswitch scenario",
            "trimswitch evaluate --only summary --out results/summary",
            "trimswitch scenario --help")),
        Map.entry("trimswitch scenario", List.of(
            "trimswitch scenario",
            "trimswitch scenario --pattern 'incast:64->4' --mechanism tofino,dod",
            "trimswitch scenario --packets 10 --no-ideal --pcap-dir results/caps",
            "trimswitch scenario --mechanism tofino --json - | jq .mechanism")),
        Map.entry("trimswitch fabric", List.of(
            "trimswitch fabric",
            "trimswitch fabric --workload incast --racks 3 --spine tofino",
            "trimswitch fabric --config config/examples/fabric.yaml --json -")),
        Map.entry("trimswitch evaluate", List.of(
            "trimswitch evaluate",
            "trimswitch evaluate --only response --out results/response",
            "trimswitch evaluate --only sweep --shard 1/2 --out results/shard-1",
            "trimswitch evaluate --only sweep --shard 2/2 --out results/shard-2",
            "trimswitch evaluate --merge results/shard-1 results/shard-2 \\",
            "    --out results/merged")),
        Map.entry("trimswitch replay", List.of(
            "trimswitch replay --in capture.pcapng --out results/out.pcapng",
            "trimswitch replay --in 0=a.pcap --in 1=b.pcap --timing line-rate \\",
            "    --out-dir results/out --json -")),
        Map.entry("trimswitch run", List.of(
            "trimswitch run -i 0@veth0 -i 1@veth1",
            "trimswitch run -i 0@veth0 -i 1@veth1 --idle poll --duration-s 60",
            "trimswitch run --config config/examples/switch.yaml")),
        Map.entry("trimswitch ctl", List.of(
            "trimswitch ctl show",
            "trimswitch ctl set trim.dscp 12",
            "trimswitch ctl set ports.1.rateGbps 0.1",
            "trimswitch ctl del-port 1",
            "trimswitch ctl add-port 1@veth7 --rate-gbps 10",
            "trimswitch ctl capture 1 start results/port1.pcapng",
            "trimswitch ctl capture 1 stop",
            "trimswitch ctl --counters /run/trimswitch/trimswitch-mininet-s1.counters reload")),
        Map.entry("trimswitch stats", List.of(
            "trimswitch stats",
            "trimswitch stats --watch 1",
            "trimswitch stats --json")),
        Map.entry("trimswitch gen", List.of(
            "trimswitch gen receive --bind 10.9.0.5:666 --expect 8000",
            "trimswitch gen send --to 10.9.0.5:666 --count 8000 --rate 100000")),
        Map.entry("trimswitch gen send", List.of(
            "trimswitch gen send --to 10.9.0.5:666 --count 8000 --rate 100000",
            "trimswitch gen send --to 10.9.0.5:666 --dscp 0 --flow 2")),
        Map.entry("trimswitch gen receive", List.of(
            "trimswitch gen receive --bind 10.9.0.5:666 --expect 8000",
            "trimswitch gen receive --idle-s 5 --json results/received.json")),
        Map.entry("trimswitch host", List.of(
            "trimswitch host --listen 10.9.0.4:666 --rate-gbps 0.1 \\",
            "    --expect-flows 3 --json results/received.json",
            "trimswitch host --connect 10.9.0.4:666 --size 400000 --spray 3")),
        Map.entry("trimswitch help", List.of(
            "trimswitch help",
            "trimswitch help scenario")));

    /** What the shell offers after an option that takes one of a few words (or a list of them). */
    static final Map<String, List<String>> CANDIDATES = Map.ofEntries(
        Map.entry("--mechanism", labels(Mechanism.values())),
        Map.entry("--leaf", labels(Mechanism.values())),
        Map.entry("--spine", labels(Mechanism.values())),
        Map.entry("--only", Evaluation.experiments().stream().map(Experiment::name).toList()),
        Map.entry("--idle", labels(Settings.Idle.values())),
        Map.entry("--placement", labels(Settings.Placement.values())),
        Map.entry("--routing", labels(NetworkSettings.Routing.values())),
        Map.entry("--workload", labels(NetworkSettings.WorkloadKind.values())),
        Map.entry("--transport", labels(Settings.TransportKind.values())),
        Map.entry("--clock", labels(Settings.Clock.values())),
        Map.entry("--meters", labels(Settings.MeterProfile.values())),
        Map.entry("--timing", List.of("capture", "line-rate")));

    private ManualAndCompletion() {
    }

    public static void main(final String[] args) throws IOException {
        write(Path.of(args[0]));
    }

    /** Writes {@code man-adoc/} and {@code completion/trimswitch} under {@code target}. */
    static void write(final Path target) throws IOException {
        final CommandLine tool = TrimswitchCommand.tree();
        tool.setCommandName("trimswitch");
        complete(tool);
        final Path man = Files.createDirectories(target.resolve("man-adoc"));
        final int written = ManPageGenerator.generateManPage(man.toFile(), null, new boolean[0], true, tool.getCommandSpec());
        if (written != 0) {
            throw new IllegalStateException("the man pages' AsciiDoc was not written (" + written + ")");
        }
        final Path completion = Files.createDirectories(target.resolve("completion"));
        Files.writeString(completion.resolve("trimswitch"), AutoComplete.bash("trimswitch", tool));
    }

    /** Adds every command's examples and its options' words, down the whole tree. */
    private static void complete(final CommandLine command) {
        final CommandSpec spec = command.getCommandSpec();
        final List<String> examples = EXAMPLES.get(spec.qualifiedName());
        if (examples == null) {
            throw new IllegalStateException("no examples for " + spec.qualifiedName() + ": add them to ManualAndCompletion.EXAMPLES");
        }
        spec.usageMessage().footerHeading("Examples").footer(examples.toArray(String[]::new));
        // An option's words can only be given when it is built: the options from the first one that takes words on are
        // built again, in their order, so the usage and man page list them as before.
        final List<OptionSpec> options = new ArrayList<>(spec.options());
        int first = 0;
        while (first < options.size() && !takesWords(options.get(first))) {
            first++;
        }
        for (final OptionSpec option : options.subList(first, options.size())) {
            spec.remove(option);
        }
        for (final OptionSpec option : options.subList(first, options.size())) {
            spec.addOption(takesWords(option) ? option.toBuilder().completionCandidates(CANDIDATES.get(option.longestName())).build() : option);
        }
        command.getSubcommands().values().forEach(ManualAndCompletion::complete);
    }

    private static boolean takesWords(final OptionSpec option) {
        return CANDIDATES.containsKey(option.longestName()) && option.completionCandidates() == null && option.arity().max() > 0;
    }

    private static List<String> labels(final Choice[] choices) {
        return Arrays.stream(choices).map(Choice::label).toList();
    }
}
