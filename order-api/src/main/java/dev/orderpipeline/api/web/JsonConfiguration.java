package dev.orderpipeline.api.web;

import java.util.List;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.core.annotation.Order;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads JSON strictly: {@code "stock": 1.5}, {@code "quantity": "2"} or {@code "name": 42} are client errors to
 * report, not values to round or convert. And within limits ({@link RequestLimits}): the parser refuses nesting
 * and numbers far beyond anything a valid request holds before any of it reaches a field.
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    /**
     * Boot's builder with a parser that has this API's limits. Parse limits belong to the JSON factory, which a
     * {@link JsonMapperBuilderCustomizer} cannot replace, so this takes the place of Boot's builder bean and applies
     * the customizers (Boot's own included) exactly as Boot does.
     */
    @Bean
    @Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
    JsonMapper.Builder jsonMapperBuilder(RequestLimits limits, List<JsonMapperBuilderCustomizer> customizers) {
        var constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxJsonNestingDepth())
                .maxNumberLength(limits.maxJsonNumberLength())
                .maxStringLength(
                        (int) Math.min(Integer.MAX_VALUE, limits.maxBodySize().toBytes()))
                .build();
        var builder = JsonMapper.builder(
                JsonFactory.builder().streamReadConstraints(constraints).build());
        customizers.forEach(customizer -> customizer.customize(builder));
        return builder;
    }

    /** JSON responses with their length rather than chunked ({@link SizedJsonConverter}); after Boot's, which it replaces. */
    @Bean
    @Order(1)
    ServerHttpMessageConvertersCustomizer sizedJsonResponses(JsonMapper mapper) {
        return converters -> converters.withJsonConverter(new SizedJsonConverter(mapper));
    }

    @Bean
    JsonMapperBuilderCustomizer strictScalars() {
        return builder -> builder.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfig(
                        LogicalType.Textual,
                        text -> text.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }
}
