package io.trimswitch.network.htsim;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A report's transport sections by name, kept as the transport made them (records) and made trees only when read as
 * such: {@link HtsimReportJson} writes them from the records, so that a fabric's run never loads data binding.
 */
final class TransportSections extends AbstractMap<String, JsonNode> {
    private final Map<String, Object> made = new LinkedHashMap<>();

    /** Loaded with the first section read as a tree, not before. */
    private static final class Trees {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /** Keeps {@code section} (a record of records, strings, numbers, lists and maps, or a tree) under {@code name}. */
    void keep(final String name, final Object section) {
        made.put(name, section);
    }

    @Override
    public JsonNode put(final String name, final JsonNode section) {
        final JsonNode before = get(name);
        made.put(name, section);
        return before;
    }

    @Override
    public Set<Entry<String, JsonNode>> entrySet() {
        final Map<String, JsonNode> trees = new LinkedHashMap<>();
        made.forEach((name, section) -> trees.put(name, section instanceof JsonNode tree ? tree : Trees.MAPPER.valueToTree(section)));
        return trees.entrySet();
    }

    /** Writes each section as a field of the object {@code out} is in, as data binding writes its tree. */
    static void write(final JsonGenerator out, final Map<String, JsonNode> sections) throws IOException {
        if (sections instanceof TransportSections own) {
            for (final Map.Entry<String, Object> section : own.made.entrySet()) {
                out.writeFieldName(section.getKey());
                value(out, section.getValue());
            }
            return;
        }
        for (final Map.Entry<String, JsonNode> section : sections.entrySet()) {
            out.writeFieldName(section.getKey());
            tree(out, section.getValue());
        }
    }

    private static void value(final JsonGenerator out, final Object value) throws IOException {
        switch (value) {
            case null -> out.writeNull();
            case String text -> out.writeString(text);
            case Boolean flag -> out.writeBoolean(flag);
            case Integer number -> out.writeNumber(number.intValue());
            case Long number -> out.writeNumber(number.longValue());
            case Double number -> out.writeNumber(number.doubleValue());
            case Enum<?> choice -> out.writeString(choice.name());
            case JsonNode tree -> tree(out, tree);
            case Record record -> record(out, record);
            case Collection<?> values -> {
                out.writeStartArray();
                for (final Object element : values) {
                    value(out, element);
                }
                out.writeEndArray();
            }
            case Map<?, ?> fields -> {
                out.writeStartObject();
                for (final Map.Entry<?, ?> field : fields.entrySet()) {
                    out.writeFieldName(String.valueOf(field.getKey()));
                    value(out, field.getValue());
                }
                out.writeEndObject();
            }
            default -> tree(out, Trees.MAPPER.valueToTree(value));
        }
    }

    /** A record's components in order, leaving out nulls where the record says {@code @JsonInclude(NON_NULL)}. */
    private static void record(final JsonGenerator out, final Record record) throws IOException {
        final JsonInclude include = record.getClass().getAnnotation(JsonInclude.class);
        final boolean skipNulls = include != null && include.value() == JsonInclude.Include.NON_NULL;
        out.writeStartObject();
        for (final RecordComponent component : record.getClass().getRecordComponents()) {
            final Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (final IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component + " of a transport's report", e);
            }
            if (value != null || !skipNulls) {
                out.writeFieldName(component.getName());
                value(out, value);
            }
        }
        out.writeEndObject();
    }

    /** A section read back as a tree: each node as the node would write itself. */
    private static void tree(final JsonGenerator out, final JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.writeStartObject();
                for (final Map.Entry<String, JsonNode> field : node.properties()) {
                    out.writeFieldName(field.getKey());
                    tree(out, field.getValue());
                }
                out.writeEndObject();
            }
            case ARRAY -> {
                out.writeStartArray();
                for (final JsonNode element : node) {
                    tree(out, element);
                }
                out.writeEndArray();
            }
            case STRING -> out.writeString(node.textValue());
            case BOOLEAN -> out.writeBoolean(node.booleanValue());
            case NUMBER -> number(out, node);
            default -> out.writeNull();
        }
    }

    private static void number(final JsonGenerator out, final JsonNode node) throws IOException {
        switch (node.numberType()) {
            case INT -> out.writeNumber(node.intValue());
            case LONG -> out.writeNumber(node.longValue());
            case FLOAT -> out.writeNumber(node.floatValue());
            case DOUBLE -> out.writeNumber(node.doubleValue());
            case BIG_INTEGER -> out.writeNumber(node.bigIntegerValue());
            default -> out.writeNumber(node.decimalValue());
        }
    }
}
