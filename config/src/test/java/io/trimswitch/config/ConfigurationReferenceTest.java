package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md is made from {@link Settings}: every setting, its type and its default come from the records,
 * its meaning from {@code setting-descriptions.txt} beside this test. The test fails when the file differs from what the
 * class makes, or when a setting has no description; {@code -Dtrimswitch.docs.write=true} rewrites the file.
 */
class ConfigurationReferenceTest {
    private static final Path REFERENCE = Path.of("..", "docs", "configuration.md");

    @Test
    void everySettingHasADescriptionAndEveryDescriptionASetting() throws IOException {
        final Map<String, String> descriptions = descriptions();
        final List<Row> rows = rows(Settings.class, Settings.DEFAULTS, "");
        final TreeSet<String> undescribed = new TreeSet<>();
        for (final Row row : rows) {
            if (!descriptions.containsKey(row.key())) {
                undescribed.add(row.key());
            }
        }
        assertTrue(undescribed.isEmpty(), "settings without a description in setting-descriptions.txt: " + undescribed);
        final TreeSet<String> unknown = new TreeSet<>(descriptions.keySet());
        rows.forEach(row -> unknown.remove(row.key()));
        assertTrue(unknown.isEmpty(), "descriptions of settings Settings does not have: " + unknown);
    }

    @Test
    void docsConfigurationIsWhatTheSettingsClassesMake() throws IOException {
        final String made = reference();
        if (Boolean.getBoolean("trimswitch.docs.write")) {
            Files.writeString(REFERENCE, made);
        }
        assertEquals(made, Files.exists(REFERENCE) ? Files.readString(REFERENCE) : "",
            "docs/configuration.md is out of date: rewrite it with ./mvnw -q -pl config -am test -Dtest=ConfigurationReferenceTest "
                + "-Dsurefire.failIfNoSpecifiedTests=false -Dtrimswitch.docs.write=true");
    }

    /** One setting: its key as a file spells it, its type, its default. */
    private record Row(String key, String type, String defaultValue) {
    }

    static String reference() throws IOException {
        final Map<String, String> descriptions = descriptions();
        final StringBuilder text = new StringBuilder();
        text.append("# Configuration reference\n\n");
        text.append("Every setting of the switch, with its type, its default and its unit: what a YAML file given to `--config`\n");
        text.append("may hold. The keys nest as the dots say (`fabric.pipelines` is `pipelines:` under `fabric:`); `[]` is a list\n");
        text.append("of entries with the keys that follow. An unknown key is an error, and so is a value of the wrong kind: a number\n");
        text.append("where `true` or `false` belongs, a fraction where a whole number does, or `''` where a number does (leave the\n");
        text.append("key out for its default). [`config/examples/scenario.yaml`](../config/examples/scenario.yaml) lists the\n");
        text.append("settings at their defaults. How the settings play together is in [scenarios.md](scenarios.md) and\n");
        text.append("[live-switch.md](live-switch.md).\n\n");
        text.append("<!-- Made from config/src/main/java/io/trimswitch/config/Settings.java by ConfigurationReferenceTest, with the\n");
        text.append("     descriptions in config/src/test/resources/io/trimswitch/config/setting-descriptions.txt. Do not edit: rewrite it with\n");
        text.append("     ./mvnw -q -pl config -am test -Dtest=ConfigurationReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dtrimswitch.docs.write=true -->\n\n");
        String section = null;
        for (final Row row : rows(Settings.class, Settings.DEFAULTS, "")) {
            final String top = row.key().replaceFirst("[.\\[].*", "").equals(row.key()) ? "" : row.key().replaceFirst("[.\\[].*", "");
            if (!top.equals(section)) {
                text.append(section == null ? "" : "\n");
                text.append(top.isEmpty() ? "## The switch\n\n" : "## `" + top + "`\n\n");
                text.append("<!-- reference -->\n");
                text.append("| setting | type | default | meaning |\n|---|---|---|---|\n");
                section = top;
            }
            text.append("| `").append(row.key()).append("` | ").append(row.type()).append(" | ").append(row.defaultValue()).append(" | ")
                .append(descriptions.get(row.key()).replace("|", "\\|")).append(" |\n");
        }
        return text.toString();
    }

    private static Map<String, String> descriptions() throws IOException {
        final Map<String, String> descriptions = new LinkedHashMap<>();
        try (InputStream in = ConfigurationReferenceTest.class.getResourceAsStream("setting-descriptions.txt")) {
            final String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (final String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                final int colon = line.indexOf(": ");
                descriptions.put(line.substring(0, colon).trim(), line.substring(colon + 2).trim());
            }
        }
        return descriptions;
    }

    /** The settings of {@code type} in the order a file writes them, with {@code instance}'s values as defaults. */
    private static List<Row> rows(final Class<?> type, final Object instance, final String prefix) {
        final List<Row> rows = new ArrayList<>();
        for (final Field field : fields(type)) {
            final String key = prefix + key(field);
            final Object value = instance == null ? null : read(field, instance);
            final Class<?> kind = field.getType();
            if (isSettingsClass(kind)) {
                rows.addAll(rows(kind, value, key + "."));
            } else if (List.class.isAssignableFrom(kind) && isSettingsClass(element(field.getGenericType()))) {
                final Class<?> entry = (Class<?>) element(field.getGenericType());
                rows.add(new Row(key + "[]", "list of entries", value == null || ((List<?>) value).isEmpty() ? "empty" : value.toString()));
                rows.addAll(rows(entry, newInstance(entry), key + "[]."));
            } else {
                rows.add(new Row(key, typeName(field.getGenericType()), shown(value)));
            }
        }
        return rows;
    }

    private static List<Field> fields(final Class<?> type) {
        final List<Field> fields = new ArrayList<>();
        for (final java.lang.reflect.RecordComponent component : type.getRecordComponents()) {
            try {
                fields.add(type.getDeclaredField(component.getName()));
            } catch (final NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
        }
        final JsonPropertyOrder order = type.getAnnotation(JsonPropertyOrder.class);
        if (order != null) {
            final List<String> names = Arrays.asList(order.value());
            fields.sort(Comparator.comparingInt(field -> names.contains(key(field)) ? names.indexOf(key(field)) : names.size()));
        }
        return fields;
    }

    /** The key a file writes for {@code field}: its own name, or the one Jackson is told to use. */
    private static String key(final Field field) {
        final com.fasterxml.jackson.annotation.JsonProperty named = field.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
        return named == null || named.value().isEmpty() ? field.getName() : named.value();
    }

    private static boolean isSettingsClass(final Type type) {
        return type instanceof Class<?> kind && kind.isRecord() && Settings.isBlock(kind);
    }

    private static Type element(final Type list) {
        return list instanceof ParameterizedType parameterized ? parameterized.getActualTypeArguments()[0] : Object.class;
    }

    private static Object read(final Field field, final Object instance) {
        try {
            field.setAccessible(true);
            return field.get(instance);
        } catch (final IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object newInstance(final Class<?> type) {
        try {
            return type.getField("DEFAULTS").get(null);
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String typeName(final Type type) {
        if (type == int.class || type == long.class) {
            return "whole number";
        }
        if (type == Integer.class) {
            return "whole number or null";
        }
        if (type == double.class) {
            return "number";
        }
        if (type == Double.class) {
            return "number or null";
        }
        if (type == boolean.class) {
            return "true or false";
        }
        if (type == String.class || type instanceof Class<?> kind && Choice.class.isAssignableFrom(kind)) {
            return "text";
        }
        if (type instanceof ParameterizedType parameterized) {
            final Type[] arguments = parameterized.getActualTypeArguments();
            if (parameterized.getRawType() == List.class) {
                return "list of " + plural(typeName(arguments[0]));
            }
            if (parameterized.getRawType() == Map.class) {
                return "map of " + typeName(arguments[0]) + " to " + typeName(arguments[1]);
            }
        }
        if (type == Object.class) {
            // A transport's own block: the transport reads its values.
            return "any value";
        }
        throw new IllegalStateException("no name for the type " + type + ": add one here");
    }

    private static String plural(final String name) {
        if (name.startsWith("whole number")) {
            return "whole numbers";
        }
        return name.equals("text") ? "texts" : name;
    }

    private static String shown(final Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Choice choice) {
            return "`" + choice.label() + "`";
        }
        if (value instanceof Double number) {
            return number == Math.rint(number) && Math.abs(number) < 1e15 ? "`" + number.longValue() + "`" : "`" + number + "`";
        }
        if (value instanceof List<?> list && list.isEmpty() || value instanceof Map<?, ?> map && map.isEmpty()) {
            return "empty";
        }
        return "`" + value + "`";
    }
}
