package io.trimswitch.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shards talk only through their command queues (docs/design.md, "The real-time duty cycle"), in two rules a class can
 * break: no class but the one that builds the shards holds a shard, so nothing calls into another shard's duty cycle;
 * and no class keeps a queue or ring between threads of its own beside the command queue, the NOTIFY inboxes (the
 * modelled switch's wires) and the two queues from a shard to a writer thread of the live switch (link lines, captures).
 * Packets cross between shards on the traffic manager's and the hand-off rings, which are the switch's own queues.
 * Each rule fails on a class planted to break it.
 */
class ShardChannelsTest {
    static final String SHARD = "io.trimswitch.realtime.shard.PipelineShard";
    /** Builds the shards and gives each its parts: it alone holds them all. */
    static final String ASSEMBLY = "io.trimswitch.realtime.shard.ShardedDataplane";
    /** The queues and rings between threads the switch has, each for one thing. */
    static final Set<String> CHANNELS = Set.of(
        "io.trimswitch.realtime.shard.CommandQueue",
        "io.trimswitch.realtime.shard.NotifyInboxes",
        "io.trimswitch.live.link.LinkLog",
        "io.trimswitch.live.capture.LiveCapture");

    private static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.trimswitch.realtime", "io.trimswitch.pipelines", "io.trimswitch.live");
    private static final JavaClasses PLANTED = new ClassFileImporter().importClasses(PlantedShardPeer.class, PlantedNewsRing.class);

    @Test
    void noClassOfTheShardsOrThePipelinesHoldsAShard() {
        noClassHoldsAShard("io.trimswitch.realtime.shard..", "io.trimswitch.pipelines..").check(MAIN);
    }

    @Test
    void betweenThreadsThereAreOnlyTheCommandQueueAndTheSwitchsOwnRings() {
        noSecondChannel("io.trimswitch.realtime..", "io.trimswitch.pipelines..", "io.trimswitch.live..").check(MAIN);
    }

    @Test
    void theRulesSeeTheClassesTheyGovern() {
        assertTrue(MAIN.contain(SHARD) && MAIN.contain(ASSEMBLY) && MAIN.contain("io.trimswitch.pipelines.BridgeForwarding")
            && MAIN.contain("io.trimswitch.live.shard.BridgeNews"), "imported: " + MAIN.size() + " classes");
        assertFalse(noSecondChannel("io.trimswitch.realtime..").evaluate(MAIN.that(named("io.trimswitch.realtime.shard.CommandQueue")))
            .hasViolation(), "the command queue itself is allowed its queue");
    }

    @Test
    void aClassThatKeepsItsPeerShardsBreaksTheFirstRule() {
        final EvaluationResult result = noClassHoldsAShard("io.trimswitch.architecture..").evaluate(PLANTED);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedShardPeer.class.getName() + ".peers"), result.getFailureReport().toString());
    }

    @Test
    void aRingOfNewsBetweenShardsBesideTheCommandQueueBreaksTheSecondRule() {
        final EvaluationResult result = noSecondChannel("io.trimswitch.architecture..").evaluate(PLANTED);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedNewsRing.class.getName()), result.getFailureReport().toString());
        assertFalse(result.getFailureReport().toString().contains(PlantedShardPeer.class.getName()), "the other planted class keeps no ring");
    }

    /** No class in {@code packages} but {@link #ASSEMBLY} has a field that is a shard, or an array of them. */
    static ArchRule noClassHoldsAShard(final String... packages) {
        return classes().that().resideInAnyPackage(packages).and().doNotHaveFullyQualifiedName(ASSEMBLY)
            .should(new ArchCondition<JavaClass>("hold no pipeline shard (a shard reaches another only through its command queue)") {
                @Override
                public void check(final JavaClass type, final ConditionEvents events) {
                    for (final JavaField field : type.getFields()) {
                        if (field.getModifiers().contains(JavaModifier.SYNTHETIC)) {
                            // An inner class's own outer instance: part of the shard itself, not another one.
                            continue;
                        }
                        JavaClass held = field.getRawType();
                        while (held.isArray()) {
                            held = held.getComponentType();
                        }
                        if (held.getName().equals(SHARD)) {
                            events.add(SimpleConditionEvent.violated(field, field.getFullName() + " holds a " + SHARD));
                        }
                    }
                }
            }).allowEmptyShould(true);
    }

    /** No class in {@code packages} but the {@link #CHANNELS} uses a queue or ring between threads. */
    static ArchRule noSecondChannel(final String... packages) {
        return noClasses().that().resideInAnyPackage(packages).and(DescribedPredicate.not(namedAnyOf(CHANNELS)))
            .should().dependOnClassesThat(queueBetweenThreads())
            .because("shards talk through their command queues, packets cross on the switch's rings").allowEmptyShould(true);
    }

    /** Agrona's, JCTools' and the JDK's concurrent queues and rings. */
    private static DescribedPredicate<JavaClass> queueBetweenThreads() {
        return DescribedPredicate.describe("a queue or ring between threads", type -> {
            final String name = type.getName();
            final boolean queue = type.getSimpleName().contains("Queue") || type.getSimpleName().contains("Deque");
            return name.startsWith("org.agrona.concurrent.ringbuffer.") || name.startsWith("org.agrona.concurrent.broadcast.")
                || name.startsWith("org.jctools.") || queue && (type.getPackageName().equals("org.agrona.concurrent")
                || type.getPackageName().equals("java.util.concurrent"));
        });
    }

    private static DescribedPredicate<JavaClass> namedAnyOf(final Set<String> names) {
        // A class nested in a channel is part of it (the NOTIFY inboxes' reader).
        return DescribedPredicate.describe("named one of " + names, type -> names.contains(type.getName().replaceFirst("\\$.*", "")));
    }

    private static DescribedPredicate<JavaClass> named(final String... names) {
        return namedAnyOf(Set.copyOf(Arrays.asList(names)));
    }
}
