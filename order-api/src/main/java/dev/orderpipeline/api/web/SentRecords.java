package dev.orderpipeline.api.web;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;

/**
 * Describes the records the API answers with as it writes them: every component is in every answer (null ones too),
 * so every one is required, and a component may be null exactly where its Java type says {@link Nullable} (which
 * NullAway holds the code to), in OpenAPI 3.1's words: the type {@code "null"} beside its own, {@code null} among an
 * enum's values, a reference or null. Springdoc alone says neither, and a client generated from its description fails
 * on the first pending order.
 *
 * <p>The records are those the handler methods name as the schema of an {@link ApiResponse}, and the records (or lists
 * of records) they hold: nothing to register when an endpoint or a field is added.
 */
final class SentRecords implements OpenApiCustomizer {

    private final Supplier<Collection<HandlerMethod>> handlers;

    SentRecords(Supplier<Collection<HandlerMethod>> handlers) {
        this.handlers = handlers;
    }

    @Override
    public void customise(OpenAPI openApi) {
        var components = openApi.getComponents();
        var schemas = components == null ? null : components.getSchemas();
        if (schemas == null) {
            return;
        }
        for (var record : records(handlers.get())) {
            var schema = schemas.get(record.getSimpleName());
            if (schema != null) {
                describe(record, schema);
            }
        }
    }

    /** The records the handlers answer with, and those inside them. */
    static Set<Class<?>> records(Collection<HandlerMethod> handlers) {
        var found = new LinkedHashSet<Class<?>>();
        for (var handler : handlers) {
            for (var response :
                    AnnotatedElementUtils.findMergedRepeatableAnnotations(handler.getMethod(), ApiResponse.class)) {
                for (var content : response.content()) {
                    collect(content.schema().implementation(), found);
                }
            }
        }
        return found;
    }

    private static void collect(Class<?> type, Set<Class<?>> found) {
        if (!type.isRecord() || !found.add(type)) {
            return;
        }
        for (var component : type.getRecordComponents()) {
            collect(component.getType(), found);
            if (component.getGenericType() instanceof ParameterizedType generic) {
                for (var argument : generic.getActualTypeArguments()) {
                    if (argument instanceof Class<?> element) {
                        collect(element, found);
                    }
                }
            }
        }
    }

    private static void describe(Class<?> record, Schema<?> schema) {
        var properties = schema.getProperties();
        var required = new ArrayList<String>();
        for (var component : record.getRecordComponents()) {
            required.add(component.getName());
            var property = properties == null ? null : properties.get(component.getName());
            if (property != null && nullable(component)) {
                properties.put(component.getName(), orNull(property));
            }
        }
        schema.setRequired(required);
    }

    private static boolean nullable(RecordComponent component) {
        return component.getAnnotatedType().isAnnotationPresent(Nullable.class);
    }

    /** The property's schema, with null allowed. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Schema<?> orNull(Schema property) {
        var nullSchema = new Schema<>();
        nullSchema.addType("null");
        if (property.get$ref() != null) {
            return new Schema<>().anyOf(List.of(new Schema<>().$ref(property.get$ref()), nullSchema));
        }
        var types = new LinkedHashSet<String>();
        if (property.getTypes() != null) {
            types.addAll(property.getTypes());
        } else if (property.getType() != null) {
            types.add(property.getType());
        }
        types.add("null");
        property.setTypes(types);
        var values = property.getEnum();
        if (values != null && !values.contains(null)) {
            property.addEnumItemObject(null);
        }
        return property;
    }
}
