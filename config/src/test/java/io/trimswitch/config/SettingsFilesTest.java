package io.trimswitch.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsFilesTest {
    @Test
    void theShippedExampleHoldsExactlyTheDefaults() {
        Settings example = SettingsFiles.load(Path.of("examples/scenario.yaml"));
        example.validate();
        assertEquals(SettingsFiles.toYaml(Settings.DEFAULTS), SettingsFiles.toYaml(example));
    }

    @Test
    void theTypedSettingsAreWrittenWithTheFilesKeysAndSpellings() {
        Settings edited = Settings.DEFAULTS;
        edited = edited.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        edited = edited.withRealtime(x -> x.withPlacement(Settings.Placement.PER_PIPELINE));
        edited = edited.withControl(x -> x.withNotifyScope(Settings.NotifyScope.ORIGIN));
        edited = edited.withRealtime(x -> x.withPipelineThreads(4));
        assertEquals(SettingsFiles.toYaml(edited), SettingsFiles.toYaml(edited.validate()));
        assertEquals(SettingsFiles.toYaml(Settings.DEFAULTS), SettingsFiles.toYaml(Settings.DEFAULTS.validate()));
    }

    @Test
    void aChoiceOutsideItsSetIsRefusedWithTheChoices() {
        assertEquals("realtime.idle must be one of busy-spin, yield, backoff, sleep, poll, got 'nap'",
            assertThrows(ConfigException.class, () -> SettingsFiles.parse("realtime:\n  idle: nap\n", "idle.yaml").validate()).getMessage());
    }

    @Test
    void placementAndPipelineThreadsAreOneSettingSpelledTwoWays() {
        assertEquals(2, SettingsFiles.parse("realtime:\n  placement: split\n", "p.yaml").validate().realtime().shards(4));
        assertEquals(2, SettingsFiles.parse("realtime:\n  pipelineThreads: 2\n", "p.yaml").validate().realtime().shards(4));
        assertEquals(4, SettingsFiles.parse("realtime:\n  placement: per-pipeline\n  pipelineThreads: 4\n", "p.yaml").validate().realtime().shards(4));
        assertEquals("realtime.placement (split: 2 shards) and realtime.pipelineThreads (4) are one setting and disagree: give one of them",
            assertThrows(ConfigException.class,
                () -> SettingsFiles.parse("realtime:\n  placement: split\n  pipelineThreads: 4\n", "p.yaml").validate()).getMessage());
    }

    @Test
    void pollAfterTrafficIsWholeMicrosecondsUpToASecond() {
        assertEquals(0, SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: 0\n", "w.yaml").validate().realtime().pollAfterTrafficUs());
        assertEquals(1_000_000, SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: 1000000\n", "w.yaml").validate().realtime().pollAfterTrafficUs());
        assertNull(SettingsFiles.parse("", "w.yaml").validate().realtime().pollAfterTrafficUs(), "unset: chosen by the shard's ports");
        assertNull(SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: null\n", "w.yaml").validate().realtime().pollAfterTrafficUs(), "null: unset");
        for (final String bad : List.of("-1", "1000001", "99999999999", "ten", "1.5", "NaN", "''")) {
            final String message = assertThrows(ConfigException.class,
                () -> SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: " + bad + "\n", "w.yaml").validate(), bad).getMessage();
            assertTrue(message.contains("realtime.pollAfterTrafficUs"), bad + ": " + message);
            assertEquals(1, message.lines().count(), bad + ": " + message);
        }
        // YAML's own NaN is refused while the file is read, by the line it is on, as for every whole-number setting.
        assertEquals("w.yaml: not valid YAML (line 2): Malformed numeric value '.nan'", assertThrows(ConfigException.class,
            () -> SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: .nan\n", "w.yaml").validate()).getMessage());
        assertEquals("realtime.pollAfterTrafficUs must be 0..1000000, got -1", assertThrows(ConfigException.class,
            () -> SettingsFiles.parse("realtime:\n  pollAfterTrafficUs: -1\n", "w.yaml").validate()).getMessage());
    }

    @Test
    void theOlderNameOfPollStillReadsAsPoll() {
        assertEquals(Settings.Idle.POLL, SettingsFiles.parse("realtime:\n  idle: block\n", "idle.yaml").validate().realtime().idle());
    }

    @Test
    void theTypedSettingsCannotBeChanged() {
        final Settings settings = Settings.DEFAULTS.validate();
        assertThrows(UnsupportedOperationException.class, () -> settings.trim().trimmableDscp().add(12));
        assertThrows(UnsupportedOperationException.class, () -> settings.forwarding().routes().clear());
    }

    @Test
    void anEmptyFileMeansTheDefaults() {
        assertEquals(SettingsFiles.toYaml(Settings.DEFAULTS), SettingsFiles.toYaml(SettingsFiles.parse("", "empty.yaml")));
    }

    @Test
    void aChangeIsANewRecordAndLeavesTheOriginalAsItWas() {
        final Settings original = Settings.DEFAULTS;
        final Settings changed = original.withFabric(f -> f.withPipelines(2)).withTrim(t -> t.withTrimmableDscp(List.of(10, 12)));
        assertEquals(4, original.fabric().pipelines());
        assertEquals(List.of(10), original.trim().trimmableDscp());
        assertEquals(2, changed.fabric().pipelines());
        assertEquals(List.of(10, 12), changed.trim().trimmableDscp());
    }

    @Test
    void anotherMechanismAndClockLeaveTheRestAsItWas() {
        final Settings settings = Settings.DEFAULTS.withFabric(f -> f.withPipelines(2)).withOpenLoop();
        final Settings asDod = settings.withMechanism(Mechanism.DOD).withClock(Settings.Clock.REAL).validate();
        assertEquals(Mechanism.DOD, asDod.mechanism());
        assertTrue(asDod.realTime());
        assertEquals(2, asDod.fabric().pipelines());
        assertEquals(Mechanism.TOFINO, settings.mechanism());
        assertEquals(Settings.Clock.VIRTUAL, settings.clock());
    }

    @Test
    void anUnknownMechanismIsRefused() {
        assertEquals("unknown mechanism 'nonesuch': expected one of ideal, mod, dod, tofino, tofino2",
            assertThrows(ConfigException.class, () -> SettingsFiles.parse("mechanism: nonesuch\n", "m.yaml")).getMessage());
    }

    @Test
    void everyShippedExampleReadsBackFromWhatItWrites() {
        for (final String example : new String[] {"scenario.yaml", "switch.yaml", "routed.yaml", "two-class.yaml", "uec.yaml", "stable-loop.yaml"}) {
            final Settings original = SettingsFiles.load(Path.of("examples", example));
            assertEquals(original, SettingsFiles.parse(SettingsFiles.toYaml(original), example), example);
            assertThrows(UnsupportedOperationException.class, () -> original.qos().dscpToTc().put(63, 7), example);
            assertThrows(UnsupportedOperationException.class, () -> original.trim().disable().add(Settings.OptOut.DEFAULTS), example);
        }
    }

    @Test
    void aTrimmedDscpThatIsAlsoTrimmableIsRefused() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTrim(x -> x.withDscp(10));
        final ConfigException error = assertThrows(ConfigException.class, settings::validate);
        assertTrue(error.getMessage().startsWith("trim: trimmed DSCP 10 is also in the trimmable set"), error.getMessage());
    }

    @Test
    void aPessimisticRateAboveTheHalftimisticOneIsRefused() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withControl(x -> x.withPessimisticRateGbps(60.0));
        assertThrows(ConfigException.class, settings::validate);
    }

    @Test
    void aKeyGivenTwiceIsRefusedRatherThanTheLastOneWinning() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("fabric:\n  pipelines: 2\n  pipelines: 3\n", "twice.yaml"));
        assertTrue(error.getMessage().contains("Duplicate field 'pipelines'"), error.getMessage());
    }

    @Test
    void aFileOfSeveralYamlDocumentsIsRefusedRatherThanReadInPart() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("mechanism: dod\n---\nmechanism: ideal\n", "two.yaml"));
        assertEquals("two.yaml: 2 YAML documents; a settings file holds one", error.getMessage());
    }

    @Test
    void aNullSectionIsRefusedNamingIt() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("fabric: null\n", "null.yaml"));
        assertTrue(error.getMessage().startsWith("null.yaml: 'fabric' may not be null"), error.getMessage());
        final ConfigException element = assertThrows(ConfigException.class, () -> SettingsFiles.parse("ports:\n  - null\n", "null.yaml"));
        assertTrue(element.getMessage().contains("'ports[0]' may not be null"), element.getMessage());
    }

    @Test
    void aFileThatIsNotUtf8OrIsAFolderIsSaidSo(@org.junit.jupiter.api.io.TempDir final Path dir) throws java.io.IOException {
        final Path latin1 = java.nio.file.Files.write(dir.resolve("latin1.yaml"), new byte[] {'m', ':', ' ', (byte) 0xE9, '\n'});
        assertEquals(latin1 + ": not text: byte 0xe9 at line 1", assertThrows(ConfigException.class, () -> SettingsFiles.load(latin1)).getMessage());
        assertEquals(dir + ": a directory, not a settings file", assertThrows(ConfigException.class, () -> SettingsFiles.load(dir)).getMessage());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"-1", "0", "1", "99999999999"})
    void aNumberWhereTrueOrFalseBelongsIsRefused(final String number) {
        final ConfigException error = assertThrows(ConfigException.class,
            () -> SettingsFiles.parse("trim:\n  returnToSender: " + number + "\n", "flag.yaml"));
        assertEquals("flag.yaml: bad value for 'trim.returnToSender' (line 2): expected true or false, got " + number, error.getMessage());
    }

    @Test
    void aFractionWhereTrueOrFalseBelongsIsRefused() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("trim:\n  returnToSender: 1.5\n", "flag.yaml"));
        assertEquals("flag.yaml: bad value for 'trim.returnToSender' (line 2): expected true or false", error.getMessage());
    }

    @Test
    void anEmptyStringWhereANumberBelongsIsRefusedRatherThanReadAsUnset() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("qos:\n  trimmedQueue: ''\n", "empty.yaml"));
        assertEquals("empty.yaml: bad value for 'qos.trimmedQueue' (line 2): expected a whole number, got an empty string", error.getMessage());
        final ConfigException dscp = assertThrows(ConfigException.class, () -> SettingsFiles.parse("trim:\n  fabricDscp: \"\"\n", "empty.yaml"));
        assertTrue(dscp.getMessage().contains("'trim.fabricDscp' (line 2): expected a whole number, got an empty string"), dscp.getMessage());
    }

    @Test
    void aFractionWhereAWholeNumberBelongsIsSaidSo() {
        final ConfigException error = assertThrows(ConfigException.class, () -> SettingsFiles.parse("workload:\n  seed: 1.5\n", "seed.yaml"));
        assertEquals("seed.yaml: bad value for 'workload.seed' (line 2): expected a whole number, got 1.5", error.getMessage());
    }

    @Test
    void aDeviceAFifoOrAFileOver1MiBIsRefusedBeforeAnythingIsRead(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) throws Exception {
        assertEquals("/dev/zero: not a regular file (a device or a FIFO is never read)",
            assertThrows(ConfigException.class, () -> SettingsFiles.load(java.nio.file.Path.of("/dev/zero"))).getMessage());
        final java.nio.file.Path fifo = dir.resolve("config.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        assertEquals(fifo + ": not a regular file (a device or a FIFO is never read)",
            assertThrows(ConfigException.class, () -> SettingsFiles.load(fifo)).getMessage());
        final java.nio.file.Path huge = dir.resolve("huge.yaml");
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(SettingsFiles.MAX_BYTES + 1L);
        }
        assertEquals(huge + ": " + (SettingsFiles.MAX_BYTES + 1L) + " bytes, over the " + SettingsFiles.MAX_BYTES + " (1 MiB) a settings file may hold",
            assertThrows(ConfigException.class, () -> SettingsFiles.load(huge)).getMessage());
    }
}
