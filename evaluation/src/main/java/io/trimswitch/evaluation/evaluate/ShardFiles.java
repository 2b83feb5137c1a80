package io.trimswitch.evaluation.evaluate;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.InputFiles;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.NetworkReport;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.TimelineProbe;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What a shard of the evaluation leaves in its directory besides the runs' JSON: {@code shard.json}, which says which
 * shard it is and of which evaluation, and the timelines of its runs that record one. The merge reads them back.
 */
final class ShardFiles {
    /** The file that marks a directory as a shard's. */
    static final String MANIFEST = "shard.json";
    private static final String TIMELINES = "timelines";
    private static final ObjectMapper READER = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * {@code evaluation}: a digest of every run the selected experiments plan (ids and settings), so that shards of
     * different evaluations, settings or builds are never merged; {@code seconds}: time each experiment's runs took here.
     */
    record Manifest(int shard, int of, List<String> experiments, String evaluation, int runs, Map<String, Double> seconds) {
    }

    private ShardFiles() {
    }

    /** A digest of the runs {@code experiments} plan: their ids, settings and what each run records. */
    static String fingerprint(final List<Experiment> experiments) {
        try {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (final Experiment experiment : experiments) {
                digest.update(("experiment " + experiment.name() + "\n").getBytes(StandardCharsets.UTF_8));
                for (final RunSpec spec : experiment.plan()) {
                    digest.update((spec.id() + " " + spec.keepArrivals() + " " + spec.timeline() + " " + ReportJson.toJson(spec.made()) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void writeManifest(final Path dir, final Manifest manifest) {
        ReportJson.write(dir.resolve(MANIFEST), manifest);
    }

    static Manifest readManifest(final Path dir) {
        final Path file = dir.resolve(MANIFEST);
        if (!Files.isDirectory(dir)) {
            throw new ConfigException("--merge: " + dir + " is not a directory");
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("--merge: " + dir + " has no " + MANIFEST + ": not written by evaluate --shard");
        }
        try {
            final Manifest manifest = READER.readValue(stored(file), Manifest.class);
            if (manifest.experiments() == null || manifest.evaluation() == null || manifest.seconds() == null) {
                throw new ConfigException("--merge: " + file + " is incomplete");
            }
            return manifest;
        } catch (final IOException e) {
            throw new ConfigException("--merge: cannot read " + file + ": " + firstLine(e.getMessage()));
        }
    }

    /** A file a shard wrote, read back as every file a user names is read. */
    private static byte[] stored(final Path file) {
        try {
            return InputFiles.bytes(file, InputFiles.RECORD);
        } catch (final InputFiles.Refused e) {
            throw new ConfigException("--merge: " + e.getMessage());
        }
    }

    static void writeTimeline(final Path dir, final String experiment, final String id, final TimelineProbe probe) {
        ReportJson.write(dir.resolve(TIMELINES).resolve(experiment).resolve(id + ".json"), probe.recording());
    }

    /** The run's result as the shard's files hold it, and its JSON's bytes, which the merge copies unchanged. */
    record StoredRun(RunResult result, byte[] json) {
    }

    static StoredRun readRun(final Path dir, final String experiment, final RunSpec spec) {
        final Path file = dir.resolve("runs").resolve(experiment).resolve(spec.id() + ".json");
        try {
            if (!Files.isRegularFile(file)) {
                throw new ConfigException("--merge: " + dir + " lacks run " + experiment + "/" + spec.id() + " that its shard should have made");
            }
            final byte[] json = stored(file);
            final JsonNode tree = READER.readTree(json);
            // The effective settings are echoed for the reader in the file's spelling; the run's own come from the plan.
            if (tree instanceof ObjectNode object) {
                object.remove("config");
            }
            if (spec.htsim() != null) {
                return new StoredRun(new RunResult(spec, null, null, null, READER.treeToValue(tree, HtsimReport.class)), json);
            }
            if (spec.network() != null) {
                return new StoredRun(new RunResult(spec, null, null, withConfig(READER.treeToValue(tree, NetworkReport.class), spec.network())), json);
            }
            TimelineProbe timeline = null;
            if (spec.timeline()) {
                final Path recorded = dir.resolve(TIMELINES).resolve(experiment).resolve(spec.id() + ".json");
                if (!Files.isRegularFile(recorded)) {
                    throw new ConfigException("--merge: " + dir + " lacks the timeline of run " + experiment + "/" + spec.id());
                }
                timeline = TimelineProbe.replaying(READER.readValue(stored(recorded), TimelineProbe.Recording.class));
            }
            return new StoredRun(new RunResult(spec, withConfig(READER.treeToValue(tree, RunReport.class), spec.settings().validate()), timeline), json);
        } catch (final IOException e) {
            throw new ConfigException("--merge: cannot read " + file + ": " + firstLine(e.getMessage()));
        }
    }

    /** {@code report} with the settings its run had, as the runner built it. */
    private static <R extends Record> R withConfig(final R report, final Object config) {
        try {
            final RecordComponent[] components = report.getClass().getRecordComponents();
            final Object[] values = new Object[components.length];
            final Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = components[i].getName().equals("config") ? config : components[i].getAccessor().invoke(report);
            }
            @SuppressWarnings("unchecked")
            final R copy = (R) report.getClass().getDeclaredConstructor(types).newInstance(values);
            return copy;
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(final String message) {
        if (message == null) {
            return "unreadable";
        }
        final int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
