package io.trimswitch.config;

import io.trimswitch.dataplane.io.InputFiles;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonIncludeProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.AnnotatedConstructor;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.module.SimpleDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads and writes {@link Settings} as YAML; any mistake becomes one line naming file, key and problem. The records are
 * read through their canonical constructors: a key left out takes the value of its record's {@code DEFAULTS}, and a
 * choice is read by its label.
 */
public final class SettingsFiles {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // A record's unknown keys are the ones it does not include (see DefaultsWhereLeftOut), refused where they stand.
        .enable(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        // A section, a list or a list element written as null is a mistake, not "the default"; the few settings
        // whose null means something say so themselves.
        .setDefaultSetterInfo(JsonSetter.Value.construct(Nulls.FAIL, Nulls.FAIL))
        .setAnnotationIntrospector(new DefaultsWhereLeftOut())
        .setInjectableValues(new DefaultsWhereLeftOut.Values());

    static {
        final SimpleModule choices = new SimpleModule("choices");
        choices.setDeserializers(new ChoiceReaders());
        YAML.registerModule(choices);
        YAML.registerModule(WholeNumberFields.module());
        // Jackson would read 0 or -1 as false or true, and '' as "unset": both are typing mistakes in a switch's settings.
        YAML.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        YAML.coercionConfigDefaults().setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }

    private SettingsFiles() {
    }

    public static Settings load(final Path file) {
        return parse(read(file), file.toString());
    }

    /** The most a settings file may hold: a running switch reads it again on {@code ctl reload}, so it must be bounded. */
    public static final int MAX_BYTES = (int) InputFiles.SETTINGS.maxBytes();

    /**
     * The text of a settings file, or a {@link ConfigException} saying why it cannot be read: it is read as
     * {@link InputFiles} reads every file a user names (a regular file of at most {@link #MAX_BYTES}, UTF-8 text).
     */
    public static String read(final Path file) {
        try {
            return InputFiles.text(file, InputFiles.SETTINGS);
        } catch (final InputFiles.Refused e) {
            throw new ConfigException(e.getMessage());
        }
    }

    public static Settings parse(final String yaml, final String source) {
        return parse(yaml, source, Settings.class, () -> Settings.DEFAULTS);
    }

    /**
     * The YAML mapping {@code yaml} read into a {@code type} the way a switch's settings are read: unknown keys, nulls
     * and wrong types are one-line {@link ConfigException}s naming {@code source}, the key and its line; an empty text
     * is {@code defaults}.
     */
    public static <T> T parse(final String yaml, final String source, final Class<T> type, final java.util.function.Supplier<T> defaults) {
        try {
            final List<JsonNode> documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml).readAll();
            if (documents.size() > 1) {
                throw new ConfigException(source + ": " + documents.size() + " YAML documents; a settings file holds one");
            }
            final JsonNode document = documents.isEmpty() ? null : documents.get(0);
            if (document == null || document.isMissingNode() || document.isNull()) {
                // An empty file (or one of comments only) means every default.
                return defaults.get();
            }
            if (!document.isObject()) {
                throw new ConfigException(source + ": settings are a YAML mapping of sections (fabric:, trim:, ...), got "
                    + document.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
            }
            // Read again from the text rather than the tree: a mistake's message then names its line.
            return YAML.readValue(yaml, type);
        } catch (final InvalidFormatException e) {
            if (e.getTargetType() != null && Choice.class.isAssignableFrom(e.getTargetType())) {
                // A choice outside its set is named by its key alone, as validation names a setting.
                throw new ConfigException(path(e) + " must be one of " + labels(e.getTargetType()) + ", got " + InputFiles.quoted(String.valueOf(e.getValue())));
            }
            throw new ConfigException(source + ": bad value for '" + path(e) + "'" + line(e) + ": " + expected(e));
        } catch (final InvalidNullException e) {
            throw new ConfigException(source + ": '" + path(e) + "' may not be null" + line(e) + "; leave it out for its default");
        } catch (final PropertyBindingException e) {
            throw new ConfigException(source + ": unknown key " + InputFiles.quoted(path(e)) + line(e)
                + "; known keys here: " + e.getKnownPropertyIds().stream().map(Object::toString).sorted().collect(Collectors.joining(", ")));
        } catch (final MismatchedInputException e) {
            throw new ConfigException(source + ": bad value for '" + path(e) + "'" + line(e) + ": " + expected(e));
        } catch (final JsonMappingException e) {
            if (e.getCause() instanceof ConfigException refused) {
                throw refused;
            }
            throw new ConfigException(source + ": bad value for '" + path(e) + "'" + line(e) + ": " + firstLine(e.getOriginalMessage()));
        } catch (final JsonProcessingException e) {
            throw new ConfigException(source + ": not valid YAML" + line(e) + ": " + firstLine(e.getOriginalMessage()));
        } catch (final IOException e) {
            throw new ConfigException(source + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * True when the settings file writes {@code section.key} itself, rather than leaving it to its default: a command
     * whose default differs from the file format's (the live switch's idle mode) applies its own only where the file
     * is silent.
     */
    public static boolean writes(final Path file, final String section, final String key) {
        final JsonNode document = tree(read(file), file.toString());
        return document != null && document.path(section).has(key);
    }

    /** {@code yaml} as a tree (null for an empty text), or a one-line {@link ConfigException} naming {@code source}. */
    public static JsonNode tree(final String yaml, final String source) {
        try {
            return YAML.readTree(yaml);
        } catch (final JsonProcessingException e) {
            throw new ConfigException(source + ": not valid YAML" + line(e) + ": " + firstLine(e.getOriginalMessage()));
        }
    }

    static String writeTree(final JsonNode tree) {
        return write(tree);
    }

    public static String toYaml(final Settings settings) {
        return write(settings);
    }

    private static String write(final Object settings) {
        try {
            return YAML.writeValueAsString(settings);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String path(final JsonMappingException e) {
        return OneLine.cut(e.getPath().stream()
            .map(reference -> reference.getFieldName() != null ? reference.getFieldName() : "[" + reference.getIndex() + "]")
            .collect(Collectors.joining(".")).replace(".[", "["));
    }

    private static String line(final JsonProcessingException e) {
        return e.getLocation() == null || e.getLocation().getLineNr() < 1 ? "" : " (line " + e.getLocation().getLineNr() + ")";
    }

    /** What a scalar of the wrong kind should have been, in the file's terms rather than Java's. */
    private static String expected(final MismatchedInputException e) {
        final Class<?> target = e.getTargetType();
        final String wanted;
        if (target == boolean.class || target == Boolean.class) {
            wanted = "expected true or false";
        } else if (target == double.class || target == Double.class || target == float.class || target == Float.class) {
            wanted = "expected a number";
        } else if (target == int.class || target == Integer.class || target == long.class || target == Long.class) {
            wanted = "expected a whole number";
        } else {
            return firstLine(e.getOriginalMessage());
        }
        // Jackson keeps a value it could not convert (a word, '', a number for a flag), but not one of the wrong token
        // kind (a fraction for a flag).
        if (e instanceof InvalidFormatException invalid) {
            return wanted + ", got " + ("".equals(invalid.getValue()) ? "an empty string" : OneLine.cut(String.valueOf(invalid.getValue())));
        }
        return wanted;
    }

    private static String labels(final Class<?> choices) {
        return java.util.Arrays.stream(choices.getEnumConstants()).map(choice -> ((Choice) choice).label()).collect(Collectors.joining(", "));
    }

    /**
     * Gives the parameters of a settings record's canonical constructor the values of the record's {@code DEFAULTS}
     * where the file leaves their keys out (Jackson fills a creator's missing parameters from injected values).
     */
    private static final class DefaultsWhereLeftOut extends JacksonAnnotationIntrospector {
        private static final long serialVersionUID = 1;

        /** The default of one parameter; a record, since an injected value's id cannot be null where the default is. */
        private record Default(Object value) {
        }

        @Override
        public JacksonInject.Value findInjectableValue(final AnnotatedMember member) {
            if (member instanceof AnnotatedParameter parameter && parameter.getOwner() instanceof AnnotatedConstructor
                && settingsRecord(parameter.getDeclaringClass())) {
                return JacksonInject.Value.construct(new Default(defaultOf(parameter.getDeclaringClass(), parameter.getIndex())), Boolean.TRUE);
            }
            return super.findInjectableValue(member);
        }

        /**
         * A record reads its keys alone: Jackson would gather a record's unknown keys until its last key and only then
         * refuse them, where a key not included is refused as it is met, with its line.
         */
        @Override
        public JsonIncludeProperties.Value findPropertyInclusionByName(final MapperConfig<?> config, final Annotated annotated) {
            if (annotated instanceof AnnotatedClass type && settingsRecord(type.getRawType())) {
                final java.util.Set<String> keys = new java.util.HashSet<>();
                for (final java.lang.reflect.RecordComponent component : type.getRawType().getRecordComponents()) {
                    final JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
                    keys.add(renamed == null ? component.getName() : renamed.value());
                }
                return new JsonIncludeProperties.Value(keys) {
                    private static final long serialVersionUID = 1;
                };
            }
            return super.findPropertyInclusionByName(config, annotated);
        }

        private static boolean settingsRecord(final Class<?> type) {
            return type.isRecord() && (type == Settings.class || Settings.isBlock(type));
        }

        private static Object defaultOf(final Class<?> type, final int index) {
            try {
                return type.getRecordComponents()[index].getAccessor().invoke(type.getField("DEFAULTS").get(null));
            } catch (final ReflectiveOperationException e) {
                throw new IllegalStateException(type.getName() + " needs public static DEFAULTS", e);
            }
        }

        /** The injected values: each one its own default. */
        static final class Values extends InjectableValues {
            private static final long serialVersionUID = 1;

            @Override
            @SuppressWarnings("deprecation")
            public Object findInjectableValue(final Object id, final DeserializationContext context, final BeanProperty property, final Object bean) {
                return ((Default) id).value();
            }
        }
    }

    /**
     * Reads a choice as its label, from any scalar as a text setting would be: a word outside the choices is refused
     * naming them (see {@link #parse}), a mechanism as {@link Mechanism#parse} refuses it.
     */
    private static final class ChoiceReaders extends SimpleDeserializers {
        private static final long serialVersionUID = 1;

        @Override
        public JsonDeserializer<?> findEnumDeserializer(final Class<?> type, final DeserializationConfig config, final BeanDescription description) {
            return Choice.class.isAssignableFrom(type) ? new ChoiceReader(type) : null;
        }

        @Override
        public JsonDeserializer<?> findBeanDeserializer(final com.fasterxml.jackson.databind.JavaType type, final DeserializationConfig config,
            final BeanDescription description) {
            final Class<?> raw = type.getRawClass();
            return raw == Mechanism.class || raw == SettingsChoices.TransportKind.class ? new ChoiceReader(raw) : null;
        }
    }

    private static final class ChoiceReader extends StdScalarDeserializer<Object> {
        private static final long serialVersionUID = 1;

        ChoiceReader(final Class<?> type) {
            super(type);
        }

        @Override
        public Object deserialize(final JsonParser parser, final DeserializationContext context) throws IOException {
            if (!parser.currentToken().isScalarValue()) {
                return context.handleUnexpectedToken(String.class, parser);
            }
            final String text = parser.getText();
            if (handledType() == Mechanism.class) {
                return Mechanism.parse(text);
            }
            if (handledType() == SettingsChoices.TransportKind.class) {
                return SettingsChoices.TransportKind.of(text);
            }
            for (final Object choice : handledType().getEnumConstants()) {
                if (((Choice) choice).named(text)) {
                    return choice;
                }
            }
            throw InvalidFormatException.from(parser, "not one of the choices", text, handledType());
        }
    }

    private static String firstLine(final String message) {
        final int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
