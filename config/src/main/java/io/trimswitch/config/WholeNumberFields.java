package io.trimswitch.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.util.AccessPattern;

import java.io.IOException;

/**
 * A settings file's whole numbers in the digits 0-9 only. YAML reads {@code dscp: ١٢} as a string, and Jackson would
 * turn that string into 12 with the JDK's parser, which takes any script's digits; here such a string is a bad value.
 * Everything else is Jackson's own reading of the number.
 */
final class WholeNumberFields<T> extends StdDeserializer<T> {
    private final JsonDeserializer<T> standard;

    @SuppressWarnings("unchecked")
    private WholeNumberFields(final Class<T> type) {
        super(type);
        this.standard = (JsonDeserializer<T>) NumberDeserializers.find(type, type.getName());
    }

    static SimpleModule module() {
        final SimpleModule module = new SimpleModule("whole-numbers");
        module.addDeserializer(Integer.class, new WholeNumberFields<>(Integer.class));
        module.addDeserializer(Integer.TYPE, new WholeNumberFields<>(Integer.TYPE));
        module.addDeserializer(Long.class, new WholeNumberFields<>(Long.class));
        module.addDeserializer(Long.TYPE, new WholeNumberFields<>(Long.TYPE));
        return module;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(final JsonParser parser, final DeserializationContext context) throws IOException {
        if (parser.hasToken(JsonToken.VALUE_STRING) && parser.getText().chars().anyMatch(c -> Character.isDigit(c) && (c < '0' || c > '9'))) {
            return (T) context.handleWeirdStringValue(handledType(), parser.getText(), "digits 0-9 only");
        }
        return standard.deserialize(parser, context);
    }

    @Override
    public T getNullValue(final DeserializationContext context) throws com.fasterxml.jackson.databind.JsonMappingException {
        return standard.getNullValue(context);
    }

    @Override
    public AccessPattern getNullAccessPattern() {
        return standard.getNullAccessPattern();
    }

    @Override
    public Object getEmptyValue(final DeserializationContext context) throws com.fasterxml.jackson.databind.JsonMappingException {
        return standard.getEmptyValue(context);
    }

    @Override
    public LogicalType logicalType() {
        return LogicalType.Integer;
    }
}
