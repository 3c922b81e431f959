package dev.voiceagent.adapters.rest.shared;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Integer and boolean path, query and header values that do not parse are a 422 naming the value
 * (e.g. loc ["path", "campaign_id"]), not the 404 or 400 JAX-RS would give.
 */
@Provider
public class StrictParamConverters implements ParamConverterProvider {

    private static final Set<String> TRUE = Set.of("true", "1", "yes", "on", "t", "y");
    private static final Set<String> FALSE = Set.of("false", "0", "no", "off", "f", "n");

    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        List<Object> loc = ParameterLocation.of(annotations);
        if (loc == null) {
            return null;
        }
        if (rawType == Long.class || rawType == long.class) {
            return (ParamConverter<T>) new Converter<>(loc, value -> Long.valueOf(value.strip()), "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer");
        }
        if (rawType == Integer.class || rawType == int.class) {
            return (ParamConverter<T>) new Converter<>(loc, value -> Integer.valueOf(value.strip()), "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer");
        }
        if (rawType == Boolean.class || rawType == boolean.class) {
            return (ParamConverter<T>) new Converter<>(loc, StrictParamConverters::parseBoolean, "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input");
        }
        return null;
    }

    private static Boolean parseBoolean(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (TRUE.contains(v)) {
            return Boolean.TRUE;
        }
        if (FALSE.contains(v)) {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException(value);
    }

    private record Converter<T>(List<Object> loc, Function<String, T> parse, String type, String msg)
            implements ParamConverter<T> {

        @Override
        public T fromString(String value) {
            if (value == null) {
                return null;
            }
            try {
                return parse.apply(value);
            } catch (RuntimeException e) {
                throw new RequestValidationException(ValidationError.of(loc, msg, type, value));
            }
        }

        @Override
        public String toString(T value) {
            return String.valueOf(value);
        }
    }
}
