package io.trimswitch.live.settings;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.Settings;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every setting, given every kind of hostile value: null, negative, zero, NaN, infinity, huge, the wrong
 * type. Whatever is refused is refused with one line that names the setting; nothing else may escape, and
 * no number outside every sensible range is accepted. The settings are walked from the defaults, so a
 * setting added later is covered without a line here.
 */
class HostileSettingsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The defaults, plus one of each list element, so their fields are walked too. */
    private static ObjectNode base() {
        final ObjectNode root = YAML.valueToTree(Settings.DEFAULTS);
        final ObjectNode port = NODES.objectNode().put("bind", "127.0.0.1:4790").put("remote", "127.0.0.1:5790")
            .put("vni", 42).put("rateGbps", 10.0);
        port.putNull("remotePort");
        root.set("ports", NODES.arrayNode().add(port));
        final ObjectNode forwarding = (ObjectNode) root.get("forwarding");
        forwarding.put("mode", "routed");
        forwarding.set("staticMacs", NODES.arrayNode().add(NODES.objectNode().put("mac", "02:00:00:00:00:01").put("port", 0)));
        forwarding.set("routes", NODES.arrayNode().add(
            NODES.objectNode().put("prefix", "10.0.0.0/8").put("port", 0).put("nextHopMac", "02:00:00:00:00:02")));
        return root;
    }

    /** Every leaf and every section, as a path of field names and list indexes. */
    private static List<List<Object>> paths(final JsonNode node, final List<Object> prefix, final List<List<Object>> into) {
        if (!prefix.isEmpty()) {
            into.add(prefix);
        }
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(name -> paths(node.get(name), append(prefix, name), into));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                paths(node.get(i), append(prefix, i), into);
            }
        }
        return into;
    }

    private static List<Object> append(final List<Object> prefix, final Object step) {
        final List<Object> path = new ArrayList<>(prefix);
        path.add(step);
        return path;
    }

    private static ObjectNode with(final List<Object> path, final JsonNode value) {
        final ObjectNode root = base();
        JsonNode parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            parent = path.get(i) instanceof String ? parent.get((String) path.get(i)) : parent.get((Integer) path.get(i));
        }
        final Object last = path.get(path.size() - 1);
        if (last instanceof String) {
            ((ObjectNode) parent).set((String) last, value);
        } else {
            ((ArrayNode) parent).set((Integer) last, value);
        }
        return root;
    }

    private static String name(final List<Object> path) {
        final StringBuilder name = new StringBuilder();
        for (final Object step : path) {
            name.append(step instanceof String ? (name.length() == 0 ? "" : ".") + step : "[" + step + "]");
        }
        return name.toString();
    }

    /** What a user can get wrong in any one place. */
    private static Map<String, JsonNode> hostile() {
        return Map.of(
            "null", NullNode.getInstance(),
            "-1", IntNode.valueOf(-1),
            "0", IntNode.valueOf(0),
            "NaN", DoubleNode.valueOf(Double.NaN),
            "infinity", DoubleNode.valueOf(Double.POSITIVE_INFINITY),
            "-infinity", DoubleNode.valueOf(Double.NEGATIVE_INFINITY),
            "1e300", DoubleNode.valueOf(1e300),
            "2147483647", LongNode.valueOf(Integer.MAX_VALUE),
            "text", TextNode.valueOf("x"),
            "a list", NODES.arrayNode().add(1));
    }

    /** Loads and checks the settings as {@code run} would; returns null when accepted, else the one line it said. */
    private static String outcome(final String yaml) {
        try {
            LiveSettings.validate(SettingsFiles.parse(yaml, "hostile.yaml"));
            return null;
        } catch (final ConfigException e) {
            return e.getMessage();
        } catch (final RuntimeException e) {
            fail("not one clear line but " + e + " for:\n" + yaml);
            return null;
        }
    }

    @Test
    void theBaseOfTheTableIsAValidSwitch() {
        assertEquals(null, outcome(base().toString()));
    }

    @Test
    void aWorkloadPatternThatNamesNoPatternIsRefusedThoughTheLiveSwitchSendsNoWorkload() {
        final ObjectNode settings = base();
        ((ObjectNode) settings.get("workload")).put("pattern", "incast:9999->1");
        final String refusal = outcome(settings.toString());
        assertTrue(refusal != null && refusal.contains("pattern") && refusal.lines().count() == 1, String.valueOf(refusal));
    }

    @Test
    void everySettingGivenEveryHostileValueIsRefusedInOneLineNamingItOrIsSensible() throws Exception {
        final List<String> problems = new ArrayList<>();
        for (final List<Object> path : paths(base(), List.of(), new ArrayList<>())) {
            final JsonNode original = with(path, NullNode.getInstance()) == null ? null : valueAt(base(), path);
            final String key = path.get(path.size() - 1) instanceof String ? (String) path.get(path.size() - 1) : name(path.subList(0, path.size() - 1));
            for (final Map.Entry<String, JsonNode> value : hostile().entrySet()) {
                final String yaml = YAML.writeValueAsString(with(path, value.getValue()));
                final String refusal = outcome(yaml);
                if (refusal == null) {
                    // Accepted: only a value that means something for this setting.
                    final boolean number = original != null && original.isNumber();
                    final boolean absurd = List.of("NaN", "infinity", "-infinity", "1e300").contains(value.getKey());
                    if (number && absurd) {
                        problems.add(name(path) + " = " + value.getKey() + " was accepted");
                    }
                    continue;
                }
                if (refusal.lines().count() != 1) {
                    problems.add(name(path) + " = " + value.getKey() + ": more than one line: " + refusal);
                } else if (!refusal.toLowerCase(Locale.ROOT).contains(key.toLowerCase(Locale.ROOT).replaceAll("\\[\\d+]$", ""))) {
                    problems.add(name(path) + " = " + value.getKey() + ": the message does not name '" + key + "': " + refusal);
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
    }

    private static JsonNode valueAt(final JsonNode root, final List<Object> path) {
        JsonNode node = root;
        for (final Object step : path) {
            node = step instanceof String ? node.get((String) step) : node.get((Integer) step);
        }
        return node;
    }

    /**
     * Any text: the example files and what the fuzzer makes of them; or, when the input starts with a zero byte, text
     * made of the settings' own words and YAML's punctuation, one word per byte that follows.
     */
    @FuzzTest
    void anyTextAsASettingsFileIsRefusedInOneLineOrAccepted(final byte[] input) {
        if (input.length > 0 && input[0] == 0) {
            final StringBuilder text = new StringBuilder();
            for (int i = 1; i < input.length; i++) {
                text.append(i == 1 ? "" : " ").append(YAMLISH[(input[i] & 0xFF) % YAMLISH.length]);
            }
            assertOneLineOrAccepted(text.toString());
        } else {
            assertOneLineOrAccepted(new String(input, StandardCharsets.UTF_8));
        }
    }

    private static final String[] YAMLISH = {"fabric", "trim", "control", "workload", "ports", "pipelines", "portRateGbps",
        "dataQueuePackets", "sizeBytes", "t0Us", "pattern", "bind", "- ", ":", "  ", "\n", "[", "]", "{", "}", "null", "~", "-1",
        ".nan", ".inf", "1e300", "'", "\"", "&a", "*a", "!!binary", "---", "#"};

    private static void assertOneLineOrAccepted(final String text) {
        final String refusal = outcome(text);
        if (refusal != null) {
            assertEquals(1, refusal.lines().count(), refusal);
        }
    }
}
