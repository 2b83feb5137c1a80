package io.trimswitch.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Settings changed by name while a switch runs: one key set to a value ({@code trim.dscp 12}, {@code ports.2.rateGbps
 * 0.1}), and the keys in which two settings differ. Keys are the settings file's, dotted, a list's element by its index.
 */
public final class SettingsEdit {
    private SettingsEdit() {
    }

    /**
     * {@code base} with {@code key} set to {@code value} (YAML: {@code 12}, {@code 0.5}, {@code [10, 12]}), read back as a
     * settings file is read: an unknown key or a value of the wrong type is a one-line {@link ConfigException}.
     */
    public static Settings set(final Settings base, final String key, final String value) {
        final ObjectNode tree = (ObjectNode) SettingsFiles.tree(SettingsFiles.toYaml(base), "settings in force");
        final String[] path = key.split("\\.", -1);
        if (key.isBlank() || java.util.Arrays.stream(path).anyMatch(String::isEmpty)) {
            throw new ConfigException("set: a key is sections and names joined by dots (trim.dscp, ports.2.rateGbps), got '" + key + "'");
        }
        final JsonNode parsed = SettingsFiles.tree(value, "set " + key);
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
            throw new ConfigException("set " + key + ": give a value (leave a setting out of the file for its default)");
        }
        JsonNode node = tree;
        for (int i = 0; i < path.length - 1; i++) {
            node = child(node, path[i], key);
        }
        final String last = path[path.length - 1];
        if (node instanceof ObjectNode object) {
            object.set(last, parsed);
        } else if (node instanceof ArrayNode array) {
            array.set(index(array, last, key), parsed);
        } else {
            throw new ConfigException("set: no setting '" + key + "'");
        }
        return readBack(tree, "set " + key);
    }

    /**
     * {@code base} with {@code value} (YAML, as {@link #set} takes it) added at the end of the list at {@code key}
     * ({@code ports}), read back as a settings file is read.
     */
    public static Settings append(final Settings base, final String key, final String value) {
        final ObjectNode tree = (ObjectNode) SettingsFiles.tree(SettingsFiles.toYaml(base), "settings in force");
        final JsonNode list = tree.get(key);
        if (!(list instanceof ArrayNode array)) {
            throw new ConfigException("no list '" + key + "' in the settings");
        }
        array.add(SettingsFiles.tree(value, "add to " + key));
        return readBack(tree, "add to " + key);
    }

    /**
     * {@code tree} read as a settings file is read. A refusal names no line: it would be one of the settings written out
     * here, not of any file the user has.
     */
    private static Settings readBack(final ObjectNode tree, final String what) {
        try {
            return SettingsFiles.parse(SettingsFiles.writeTree(tree), what);
        } catch (final ConfigException e) {
            throw new ConfigException(e.getMessage().replaceFirst(" \\(line [0-9]+\\)", ""));
        }
    }

    private static JsonNode child(final JsonNode node, final String name, final String key) {
        final JsonNode child = node.isArray() ? node.get(index((ArrayNode) node, name, key)) : node.get(name);
        if (child == null || !(child.isObject() || child.isArray())) {
            throw new ConfigException("set: no setting '" + key + "' (no section '" + name + "')");
        }
        return child;
    }

    private static int index(final ArrayNode array, final String name, final String key) {
        final int index;
        try {
            index = WholeNumbers.parseInt(name);
        } catch (final NumberFormatException e) {
            throw new ConfigException("set: '" + name + "' in '" + key + "' must be a list index, 0.." + (array.size() - 1));
        }
        if (index < 0 || index >= array.size()) {
            throw new ConfigException("set: '" + key + "': index " + index + " is not 0.." + (array.size() - 1));
        }
        return index;
    }

    /** The value of {@code key} ("trim.dscp", "ports.1.rateGbps") in {@code settings} as the file writes it; "default" where it has none. */
    public static String valueOf(final Settings settings, final String key) {
        JsonNode node = SettingsFiles.tree(SettingsFiles.toYaml(settings), "settings");
        for (final String name : key.split("\\.")) {
            node = node == null ? null : node.isArray() && name.matches("[0-9]+") ? node.get(WholeNumbers.parseInt(name)) : node.get(name);
        }
        return node == null || node.isNull() ? "default" : node.isValueNode() ? node.asText() : node.toString();
    }

    /** The keys whose values differ between {@code from} and {@code to}, in the file's order; a list of values is one key. */
    public static List<String> changedKeys(final Settings from, final Settings to) {
        final Set<String> keys = new LinkedHashSet<>();
        differences("", SettingsFiles.tree(SettingsFiles.toYaml(from), "from"), SettingsFiles.tree(SettingsFiles.toYaml(to), "to"), keys);
        return new ArrayList<>(keys);
    }

    private static void differences(final String prefix, final JsonNode a, final JsonNode b, final Set<String> keys) {
        final JsonNode from = a == null ? NullNode.getInstance() : a;
        final JsonNode to = b == null ? NullNode.getInstance() : b;
        if (from.equals(to)) {
            return;
        }
        if (from.isObject() && to.isObject()) {
            final Set<String> names = new LinkedHashSet<>();
            from.fieldNames().forEachRemaining(names::add);
            to.fieldNames().forEachRemaining(names::add);
            for (final String name : names) {
                differences(prefix.isEmpty() ? name : prefix + "." + name, from.get(name), to.get(name), keys);
            }
        } else if (from.isArray() && to.isArray() && from.size() == to.size() && containsObjects(from)) {
            for (int i = 0; i < from.size(); i++) {
                differences(prefix + "." + i, from.get(i), to.get(i), keys);
            }
        } else {
            keys.add(prefix);
        }
    }

    private static boolean containsObjects(final JsonNode array) {
        for (final Iterator<JsonNode> it = array.elements(); it.hasNext();) {
            if (it.next().isObject()) {
                return true;
            }
        }
        return false;
    }
}
