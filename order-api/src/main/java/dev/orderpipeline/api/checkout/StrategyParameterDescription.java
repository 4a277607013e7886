package dev.orderpipeline.api.checkout;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.List;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;

/**
 * Lists the {@code strategy} parameter's values in the API description from the strategies this instance actually
 * has, so that the description names exactly what {@link CheckoutStrategies} accepts.
 */
@Component
final class StrategyParameterDescription implements OperationCustomizer {

    private final CheckoutStrategies strategies;

    StrategyParameterDescription(CheckoutStrategies strategies) {
        this.strategies = strategies;
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        if (handler.getBeanType() != CheckoutController.class || operation.getParameters() == null) {
            return operation;
        }
        operation.getParameters().stream()
                .filter(parameter -> "strategy".equals(parameter.getName()) && "query".equals(parameter.getIn()))
                .forEach(parameter -> {
                    var schema = new StringSchema();
                    schema.setEnum(List.copyOf(strategies.names()));
                    schema.setDefault(KafkaCheckoutStrategy.NAME);
                    parameter.setSchema(schema);
                });
        return operation;
    }
}
