package io.trimswitch.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The modules' layering, read from their compiled main classes: each module uses only the modules below it, no two
 * modules or packages depend on each other in a cycle, every class sits in its module's package, and no module
 * grows into a catch-all.
 */
class LayeringTest {
    /** Each module (by directory, relative to the root: ndp/live is in NDP's folder) and the modules it may use; everything else in the project is out of bounds. */
    static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

    static {
        MAY_USE.put("dataplane", Set.of());
        MAY_USE.put("traffic-manager", Set.of("dataplane"));
        MAY_USE.put("pipelines", Set.of("traffic-manager", "dataplane"));
        MAY_USE.put("recirc", Set.of("pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("config", Set.of("pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("sonic", Set.of("config", "pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("switching", Set.of("config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("simulator", Set.of("switching", "config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("network", Set.of("simulator", "switching", "config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        MAY_USE.put("interfaces", Set.of("dataplane"));
        MAY_USE.put("sockets", Set.of("dataplane"));
        // Real time drives the same switch as virtual time, never the virtual-time engine.
        MAY_USE.put("realtime", Set.of("switching", "config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        // The live switch: the shards with ports on the host's sockets and interfaces.
        MAY_USE.put("live", Set.of("realtime", "sockets", "interfaces", "switching", "config", "recirc", "pipelines", "traffic-manager",
            "dataplane"));
        MAY_USE.put("control", Set.of("live", "realtime", "sockets", "interfaces", "switching", "config", "recirc", "pipelines",
            "traffic-manager", "dataplane"));
        MAY_USE.put("evaluation", Set.of("realtime", "network", "simulator", "switching", "config", "recirc", "pipelines",
            "traffic-manager", "dataplane"));
        // Transports' live commands too are found by name (TransportLiveCommand): the tool names no transport's folder.
        MAY_USE.put("cli", Set.of("evaluation", "control", "live", "sonic", "realtime", "sockets", "interfaces", "network", "simulator",
            "switching", "config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        // The benchmarks measure the live switch as well as the evaluation's runs.
        MAY_USE.put("bench", Set.of("evaluation", "live", "realtime", "sockets", "interfaces", "network", "simulator",
            "switching", "config", "recirc", "pipelines", "traffic-manager", "dataplane"));
        // A transport plug-in (uet, or any module that registers one) uses simulator and what it uses; nothing names it
        // (TransportRuleTest): the commands find it by name.
        final Set<String> belowTransports = new java.util.HashSet<>(MAY_USE.get("simulator"));
        belowTransports.add("simulator");
        try {
            TransportRuleTest.transportModules().forEach(module -> MAY_USE.putIfAbsent(module, Set.copyOf(belowTransports)));
            // NDP's live hosts, a module in NDP's folder, run its state machines on sockets and the host's clock.
            final Set<String> live = new java.util.HashSet<>(belowTransports);
            live.add("ndp");
            MAY_USE.put("ndp/live", Set.copyOf(live));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The modules below {@code realtime}: time is passed in to them, so none reads the host's clock, and none starts a
     * thread (a caller hands the simulator an executor for independent runs, and the link watcher the thread it reads on).
     */
    private static final List<String> CLOCK_FREE = List.of(
        "dataplane", "traffic-manager", "pipelines", "recirc", "config", "sonic", "ndp", "uet", "switching", "simulator", "network",
        "interfaces", "sockets");
    /**
     * The classes of those modules that may all the same, and why: services beside the ports, which no shard's turn
     * calls. Their nested classes with them.
     */
    static final Map<String, String> CLOCK_OR_THREAD_OF_THEIR_OWN = Map.of(
        // setfsuid changes one thread's identity: a thread handed in could be used again with the user's rights.
        "io.trimswitch.interfaces.CallerFiles", "opens a user's file on a fresh thread of its own, which ends with the identity it took",
        // Netty stays in sockets, so the loop cannot be handed in from live.
        "io.trimswitch.sockets.MetricsEndpoint", "serves /metrics on a Netty event loop of its own, and spaces its log lines by the host's clock");

    /** No module holds more than this share of the project's main lines. */
    private static final double LARGEST_MODULE_SHARE = 0.12;

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** What each kind of port registers, in the package of its own (an interface port's socket, UDP/VXLAN, generated traffic). */
    static final String PORT_KIND = "io.trimswitch.dataplane.ports.RegisteredKind";
    /** The udp kind's package, the one that names the UDP sockets of {@code sockets}. */
    static final String UDP_KIND = "io.trimswitch.live.udp";
    private static JavaClasses all;

    @BeforeAll
    static void importEveryModule() {
        final List<Path> classDirectories = new ArrayList<>();
        for (final String module : MAY_USE.keySet()) {
            final Path classes = ROOT.resolve(module).resolve("target/classes");
            assertTrue(Files.isDirectory(classes), module + " is not compiled: " + classes + " is missing");
            classDirectories.add(classes);
        }
        all = new ClassFileImporter().importPaths(classDirectories);
    }

    /** The package a module's classes live in: io.trimswitch and the module's directory without dashes, a dot for each slash. */
    static String packageOf(final String module) {
        return "io.trimswitch." + module.replace("-", "").replace('/', '.');
    }

    /** A module's classes: its package and those below it, but for a module in its folder (ndp/live's in ndp's). */
    static DescribedPredicate<JavaClass> inModule(final String module) {
        return inAnyModule(List.of(module));
    }

    static DescribedPredicate<JavaClass> inAnyModule(final List<String> modules) {
        return new DescribedPredicate<>("are in " + String.join(", ", modules)) {
            @Override
            public boolean test(final JavaClass type) {
                return modules.stream().anyMatch(module -> moduleOf(type.getPackageName()).equals(module));
            }
        };
    }

    /** The module whose package holds {@code packageName}: the one with the longest package that does; "" for none. */
    private static String moduleOf(final String packageName) {
        String found = "";
        for (final String module : MAY_USE.keySet()) {
            final String own = packageOf(module);
            if ((packageName.equals(own) || packageName.startsWith(own + ".")) && own.length() > packageOf(found).length()) {
                found = module;
            }
        }
        return found;
    }

    @Test
    void everyModuleOfTheBuildIsLayered() throws IOException {
        // A module's folder is at the root, or in a folder of the root as NDP's live hosts are.
        try (Stream<Path> entries = Files.walk(ROOT, 2)) {
            final List<String> modules = entries.filter(dir -> Files.isDirectory(dir.resolve("src/main/java")))
                .map(dir -> ROOT.relativize(dir).toString()).sorted().toList();
            assertTrue(MAY_USE.keySet().containsAll(modules), "modules without a layer here: " + modules.stream()
                .filter(module -> !MAY_USE.containsKey(module)).toList());
        }
    }

    @Test
    void eachModuleUsesOnlyTheModulesBelowIt() {
        for (final Map.Entry<String, Set<String>> module : MAY_USE.entrySet()) {
            final List<String> forbidden = MAY_USE.keySet().stream()
                .filter(other -> !other.equals(module.getKey()) && !module.getValue().contains(other)).toList();
            if (!forbidden.isEmpty()) {
                noClasses().that(inModule(module.getKey()))
                    .should().dependOnClassesThat(inAnyModule(forbidden))
                    .because(module.getKey() + " may use only " + module.getValue())
                    .check(all);
            }
        }
    }

    @Test
    void everyClassSitsInItsModulesPackage() {
        // picocli is compiled from its sources into the tool's classes (cli/pom.xml says why): a library, not a module's code.
        classes().that().resideOutsideOfPackage("picocli..").should(sitInTheirModulesPackage()).check(all);
    }

    @Test
    void noModulesDependOnEachOtherInACycle() {
        slices().matching("io.trimswitch.(*)..").should().beFreeOfCycles().check(all);
    }

    @Test
    void noPackagesDependOnEachOtherInACycle() {
        slices().matching("io.trimswitch.(**)").should().beFreeOfCycles().check(all);
    }

    @Test
    void nettyIsUsedOnlyBySockets() {
        // The benchmarks drive the switch's UDP ports with a Netty client of their own.
        noClasses().that().resideOutsideOfPackages(packageOf("sockets") + "..", packageOf("bench") + "..")
            .should().dependOnClassesThat().resideInAPackage("io.netty..").check(all);
    }

    @Test
    void onlyThePipelineShardIsAnAgronaAgent() {
        classes().that().implement("org.agrona.concurrent.Agent")
            .should().haveFullyQualifiedName("io.trimswitch.realtime.shard.PipelineShard").check(all);
    }

    @Test
    void onlyTheShardsPortListDrivesAPortKind() {
        // One walk for every kind: a frame comes in by the list's receive, a packet leaves by the list's send.
        noClasses().that().doNotHaveFullyQualifiedName("io.trimswitch.realtime.shard.PortList")
            .should().callMethodWhere(portKindTurn()).check(all);
    }

    private static DescribedPredicate<JavaAccess<?>> portKindTurn() {
        return new DescribedPredicate<>("drive a port kind's turn (receive, send, flush)") {
            @Override
            public boolean test(final JavaAccess<?> access) {
                final String name = access.getName();
                return access.getTargetOwner().isAssignableTo("io.trimswitch.realtime.shard.PortKind")
                    && (name.equals("receive") || name.equals("send") || name.equals("flush"));
            }
        };
    }

    @Test
    void clockFreeModulesReadNoHostClockAndStartNoThread() {
        // ndp's package holds ndp/live's too: the live hosts' clock is theirs, not the module's below them.
        readNoHostClockAndStartNoThread(CLOCK_OR_THREAD_OF_THEIR_OWN.keySet(), inAnyModule(CLOCK_FREE)).check(all);
    }

    /** Classes in {@code packages}, but those named in {@code allowed} and their nested ones, read no clock and start no thread. */
    static ArchRule readNoHostClockAndStartNoThread(final Set<String> allowed, final String... packages) {
        return readNoHostClockAndStartNoThread(allowed, JavaClass.Predicates.resideInAnyPackage(packages));
    }

    /** Classes {@code where} says, but those named in {@code allowed} and their nested ones, read no clock and start no thread. */
    static ArchRule readNoHostClockAndStartNoThread(final Set<String> allowed, final DescribedPredicate<JavaClass> where) {
        final DescribedPredicate<JavaClass> ofTheirOwn = new DescribedPredicate<>("are not allowed a clock or thread of their own") {
            @Override
            public boolean test(final JavaClass type) {
                return allowed.stream().noneMatch(name -> type.getName().equals(name) || type.getName().startsWith(name + "$"));
            }
        };
        return noClasses().that(where).and(ofTheirOwn).should().accessTargetWhere(hostClockOrThread())
            .because("time is passed in below realtime, and the live switch starts the threads");
    }

    private static DescribedPredicate<JavaAccess<?>> hostClockOrThread() {
        return new DescribedPredicate<>("read the host's clock or start a thread") {
            @Override
            public boolean test(final JavaAccess<?> access) {
                final JavaClass owner = access.getTargetOwner();
                final String name = access.getName();
                return owner.isEquivalentTo(System.class) && (name.equals("nanoTime") || name.equals("currentTimeMillis"))
                    || owner.isAssignableTo(Thread.class) && (name.equals("<init>") || name.startsWith("of") || name.startsWith("start"))
                    || owner.isEquivalentTo(java.util.concurrent.Executors.class)
                    || owner.isEquivalentTo(java.time.Instant.class) && name.equals("now")
                    || owner.isEquivalentTo(java.time.Clock.class)
                    || owner.getName().equals("org.agrona.concurrent.AgentRunner")
                    // A pool of threads made here (a thread pool, a fork-join pool, Netty's event loop groups); a
                    // ManualIoEventLoop has none: the thread that owns it drives it.
                    || name.equals("<init>") && owner.isAssignableTo(java.util.concurrent.ExecutorService.class)
                        && !owner.getName().equals("io.netty.channel.ManualIoEventLoop");
            }
        };
    }

    /** The packages of the port kinds: each holds a class that registers its kind. */
    static List<String> portKindPackages(final JavaClasses classes) {
        // Not the kinds' homes, where the interfaces a kind implements are, which every user of a kind names: a class
        // there that wraps any kind (a port's queues spread over threads) is no kind.
        final List<String> homes = classes.stream().filter(type -> type.isInterface() && type.isAssignableTo(PORT_KIND))
            .map(JavaClass::getPackageName).distinct().toList();
        return classes.stream().filter(type -> !type.isInterface() && type.isAssignableTo(PORT_KIND))
            .map(JavaClass::getPackageName).filter(kind -> !homes.contains(kind)).distinct().sorted().toList();
    }

    /** A port kind is one package: the switch finds it by its name (PortKinds), so nothing outside it names its classes. */
    static ArchRule portKindStaysInItsPackage(final String kindPackage) {
        return noClasses().that().resideOutsideOfPackage(kindPackage + "..").should().dependOnClassesThat().resideInAPackage(kindPackage + "..")
            .because("a port kind is one package, found by its name through " + PORT_KIND.replace("RegisteredKind", "PortKinds"));
    }

    @Test
    void nothingOutsideAPortKindsPackageNamesItsClasses() {
        final List<String> kinds = portKindPackages(all);
        assertTrue(kinds.containsAll(List.of("io.trimswitch.interfaces.afpacket", "io.trimswitch.interfaces.afxdp",
            "io.trimswitch.realtime.generated", UDP_KIND)), "every kind of port, each in its package: " + kinds);
        kinds.forEach(kind -> portKindStaysInItsPackage(kind).check(all));
    }

    @Test
    void theUdpSocketsAreTheUdpKindsAlone() {
        udpSocketsStayWithTheirKind().check(all);
    }

    /** The udp kind's socket side sits with Netty in sockets (all of it but the metrics endpoint): only the kind's package reaches it. */
    static ArchRule udpSocketsStayWithTheirKind() {
        final DescribedPredicate<JavaClass> udpSockets = JavaClass.Predicates.resideInAPackage(packageOf("sockets") + "..")
            .and(DescribedPredicate.not(HasName.Predicates.nameMatching("io\\.trimswitch\\.sockets\\.MetricsEndpoint(\\$.*)?")));
        return noClasses().that().resideOutsideOfPackages(packageOf("sockets") + "..", UDP_KIND + "..").should().dependOnClassesThat(udpSockets)
            .because("the udp kind is one package, " + UDP_KIND + ", over the sockets it alone names");
    }

    @Test
    void noModuleHoldsMoreThanAFifthOfTheMainLines() {
        final Map<String, Long> lines = new LinkedHashMap<>();
        for (final String module : MAY_USE.keySet()) {
            lines.put(module, mainLines(ROOT.resolve(module).resolve("src/main/java")));
        }
        final long total = lines.values().stream().mapToLong(Long::longValue).sum();
        for (final Map.Entry<String, Long> module : lines.entrySet()) {
            final double share = module.getValue() / (double) total;
            assertTrue(share <= LARGEST_MODULE_SHARE, String.format("%s holds %d of %d main lines (%.1f %%), more than %.0f %%",
                module.getKey(), module.getValue(), total, share * 100, LARGEST_MODULE_SHARE * 100));
        }
    }

    private static long mainLines(final Path sources) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java")).mapToLong(file -> {
                try (Stream<String> fileLines = Files.lines(file)) {
                    return fileLines.count();
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ArchCondition<JavaClass> sitInTheirModulesPackage() {
        return new ArchCondition<>("sit in their module's package") {
            @Override
            public void check(final JavaClass type, final ConditionEvents events) {
                final String location = type.getSource().map(source -> source.getUri().getPath()).orElse("");
                for (final String module : MAY_USE.keySet()) {
                    if (location.startsWith(ROOT.resolve(module).resolve("target/classes") + "/")) {
                        final String expected = packageOf(module);
                        final boolean inside = inModule(module).test(type);
                        events.add(new SimpleConditionEvent(type, inside,
                            type.getName() + " is in module " + module + " but not in package " + expected));
                        return;
                    }
                }
                events.add(SimpleConditionEvent.violated(type, type.getName() + " comes from no module: " + location));
            }
        };
    }
}
