package dev.orderpipeline.api.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The OpenAPI description ({@code /v3/api-docs}, Swagger UI at {@code /swagger-ui.html}): what the API is, the
 * bearer token of every endpoint that may answer {@link ProblemKind#AUTHENTICATION_REQUIRED}, and the problem
 * responses each endpoint declares with {@link ProblemResponses}. Operations describe themselves with annotations
 * on their controllers.
 */
@Configuration(proxyBeanMethods = false)
class ApiDescriptionConfiguration {

    static final String PROBLEM_SCHEMA = "Problem";

    static final String BEARER_SCHEME = "bearer";

    private static final String DESCRIPTION = """
            Products, orders and their checkout. A hot product with many buyers pressing checkout at once is sold \
            without overselling, losing an update or charging twice.

            **The checkout** goes through the pipeline: the API publishes a checkout command keyed by the product \
            id, so all checkouts of one product land on one partition of `checkout.commands` and one worker \
            applies them in order, with a conditional `UPDATE` and an idempotency claim in one PostgreSQL \
            transaction. The API answers `202 Accepted` with a `Location` once the broker acknowledged the \
            command; with `Prefer: wait=N` (RFC 7240) it waits up to N seconds for the worker's decision and \
            answers `200` with the decided order. The command id derives from the order id: a double click or a \
            retry is the same command, applied once. Once the broker acknowledged the command, the answer is `202` \
            or `200`, never an error. Instead of polling or waiting, `GET /api/orders/{id}/events` streams the \
            order's state and then its decision as server-sent events.

            **Retries** never buy twice: an order placed with an `Idempotency-Key` header is placed once for that \
            key, and the same request again answers with that order; a checkout is the same command however often \
            it is sent. A `503` says whether the order is untouched for sure (`broker-unavailable`, \
            `database-unavailable`, `overloaded`) or may still be decided (`checkout-outcome-unknown`: check out \
            again or read the order).

            **Callers** authenticate with a JWT bearer token (`Authorization: Bearer <token>`): its subject is the \
            user id, and an order is visible to its owner only (anyone else gets 404, as for a missing order). \
            Creating products needs the role `admin` (in the token's roles claim, `roles` unless configured \
            otherwise). Reading a product and this description are public; health, info and Prometheus are on \
            the management port (9080 by default), not here. A \
            missing token is a 401 `authentication-required`, a token that does not verify (signature, expiry, \
            issuer, audience) or whose subject is not a user id a 401 \
            `invalid-token`, both with `WWW-Authenticate: Bearer`; a missing role is a 403 `forbidden`.

            **Errors** are RFC 9457 problem details (`application/problem+json`, whatever `Accept` says) with a \
            stable `type` per kind (`urn:order-pipeline:problem:<kind>`) and `title`; `detail` describes the \
            occurrence. A refused request changes nothing. Bodies are limited to %d bytes (413) and JSON to a \
            nesting depth of %d. A 503 comes with `Retry-After`: every endpoint answers 503 \
            `database-unavailable` when the database cannot answer; a 500 is a bug.
            """;

    static {
        // the caller is resolved from the bearer token by CallerArgumentResolver (described by bearerToken), not
        // bound from the query string as springdoc would otherwise assume
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
    }

    @Bean
    OpenAPI orderApiDescription(ObjectProvider<BuildProperties> build, RequestLimits limits) {
        var version = build.getIfAvailable() == null
                ? "development"
                : build.getObject().getVersion();
        return new OpenAPI()
                .info(new Info()
                        .title("order-pipeline: order API")
                        .description(
                                DESCRIPTION.formatted(limits.maxBodySize().toBytes(), limits.maxJsonNestingDepth()))
                        .version(version)
                        .license(new License().name("Apache-2.0").identifier("Apache-2.0")))
                .components(new Components()
                        .addSchemas(PROBLEM_SCHEMA, problemSchema())
                        .addSecuritySchemes(
                                BEARER_SCHEME,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .bearerFormat("JWT")
                                        .description("A JWT whose subject is the user id; the roles claim lists"
                                                + " the caller's roles (admin)")));
    }

    /**
     * Requires the bearer token on every operation that declares {@link ProblemKind#AUTHENTICATION_REQUIRED}, and
     * names the admin role on those that declare {@link ProblemKind#FORBIDDEN}: the declarations the problem
     * responses come from, so the two cannot disagree.
     */
    @Bean
    OperationCustomizer bearerToken() {
        return (operation, handler) -> {
            var declared = handler.getMethodAnnotation(ProblemResponses.class);
            var kinds = declared == null ? List.<ProblemKind>of() : List.of(declared.value());
            if (kinds.contains(ProblemKind.AUTHENTICATION_REQUIRED)) {
                operation.addSecurityItem(new SecurityRequirement().addList(BEARER_SCHEME));
            }
            if (kinds.contains(ProblemKind.FORBIDDEN)) {
                var description = operation.getDescription() == null ? "" : operation.getDescription() + " ";
                operation.setDescription(description + "Needs the role `admin`.");
            }
            return operation;
        };
    }

    /**
     * Turns {@link ProblemResponses} into problem responses, one per status, with an example of each kind; and says
     * that any other status is a problem too ({@code default}): a wrong method, an {@code Accept} the API cannot
     * answer, the bound on requests in progress, a bug.
     */
    @Bean
    OperationCustomizer problemResponses() {
        return (operation, handler) -> {
            if (operation.getResponses() == null) {
                operation.setResponses(new ApiResponses());
            }
            var declared = handler.getMethodAnnotation(ProblemResponses.class);
            if (declared != null) {
                var byStatus = Arrays.stream(declared.value())
                        .collect(Collectors.groupingBy(
                                kind -> kind.status().value(), TreeMap::new, Collectors.toList()));
                byStatus.forEach(
                        (status, kinds) -> operation.getResponses().addApiResponse(status.toString(), response(kinds)));
            }
            operation.getResponses().addApiResponse(ApiResponses.DEFAULT, otherProblems());
            return operation;
        };
    }

    /** Nullability and presence of every field the API answers with, from the records themselves. */
    @Bean
    OpenApiCustomizer sentRecords(
            @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping handlerMapping) {
        return new SentRecords(() -> handlerMapping.getHandlerMethods().values());
    }

    private static ApiResponse otherProblems() {
        return new ApiResponse()
                .description("Any other problem, with a status of its own: `method-not-allowed`, `not-acceptable`,"
                        + " `overloaded` (503 with Retry-After), `internal-error` (a bug)...")
                .content(new Content()
                        .addMediaType(
                                org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                                new MediaType()
                                        .schema(new Schema<Object>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
    }

    private static ApiResponse response(List<ProblemKind> kinds) {
        var media = new MediaType().schema(new Schema<Object>().$ref("#/components/schemas/" + PROBLEM_SCHEMA));
        kinds.stream()
                .sorted(Comparator.naturalOrder())
                .forEach(kind -> media.addExamples(
                        slug(kind), new Example().summary(kind.title()).value(ProblemExamples.of(kind))));
        var response = new ApiResponse()
                .description(kinds.stream()
                        .map(kind -> kind.title() + " (`" + kind.type() + "`)")
                        .collect(Collectors.joining("; ")))
                .content(new Content()
                        .addMediaType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE, media));
        if (kinds.getFirst().status().value() == 503) {
            response.addHeaderObject(
                    "Retry-After",
                    new Header().description("Seconds to wait before retrying").schema(new IntegerSchema()));
        }
        return response;
    }

    /** RFC 9457's members, and room for the extra ones a kind adds. */
    private static Schema<Object> problemSchema() {
        var schema = new ObjectSchema();
        schema.setDescription("An RFC 9457 problem detail. `type` and `title` are stable per kind of problem; "
                + "`detail` describes the occurrence; some kinds add members (`errors`, `orderId`, ...).");
        schema.addProperty(
                "type",
                new StringSchema()
                        .format("uri")
                        .description("The kind of problem: urn:order-pipeline:problem:<kind>")
                        .example(ProblemKind.ORDER_NOT_FOUND.type().toString()));
        schema.addProperty(
                "title",
                new StringSchema()
                        .description("Stable summary of the kind")
                        .example(ProblemKind.ORDER_NOT_FOUND.title()));
        schema.addProperty(
                "status", new IntegerSchema().description("The HTTP status").example(404));
        schema.addProperty("detail", new StringSchema().description("What happened this time"));
        schema.addProperty(
                "instance", new StringSchema().format("uri-reference").description("The path of the request"));
        schema.addRequiredItem("type");
        schema.addRequiredItem("title");
        schema.addRequiredItem("status");
        schema.setAdditionalProperties(Boolean.TRUE);
        return schema;
    }

    private static String slug(ProblemKind kind) {
        return kind.type().toString().substring(ProblemKind.TYPE_PREFIX.length());
    }

    /** An example occurrence of each kind, as the API writes it. */
    static final class ProblemExamples {

        private static final String ORDER = "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f";
        private static final String PRODUCT = "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f";

        private ProblemExamples() {}

        static Map<String, Object> of(ProblemKind kind) {
            var example = new LinkedHashMap<String, Object>();
            example.put("type", kind.type().toString());
            example.put("title", kind.title());
            example.put("status", kind.status().value());
            switch (kind) {
                case VALIDATION_FAILED -> {
                    example.put("detail", "1 field is invalid: quantity");
                    example.put("instance", "/api/orders");
                    example.put("errors", List.of(Map.of("field", "quantity", "message", "must be greater than 0")));
                }
                case MALFORMED_REQUEST -> {
                    example.put("detail", "Field 'quantity' has a value of the wrong type or format");
                    example.put("instance", "/api/orders");
                    example.put("field", "quantity");
                }
                case AUTHENTICATION_REQUIRED -> {
                    example.put("detail", "This endpoint needs a bearer token: Authorization: Bearer <JWT>");
                    example.put("instance", "/api/orders/" + ORDER);
                }
                case INVALID_TOKEN -> {
                    example.put("detail", "The bearer token was rejected: Jwt expired at 2026-11-30T17:00:00Z");
                    example.put("instance", "/api/orders/" + ORDER);
                }
                case FORBIDDEN -> {
                    example.put("detail", "This endpoint needs the role admin");
                    example.put("instance", "/api/products");
                }
                case LAB_OFF -> {
                    example.put(
                            "detail",
                            "The production checkout runs the pipeline and takes no strategy: those are the lab's"
                                    + " parameters, and the lab is off on this instance (or the request named no"
                                    + " strategy). Nothing was checked out.");
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("parameters", List.of("strategy"));
                }
                case NOT_FOUND -> {
                    example.put("detail", "No endpoint GET /api/nothing-here");
                    example.put("instance", "/api/nothing-here");
                }
                case PRODUCT_NOT_FOUND -> {
                    example.put("detail", "Product " + PRODUCT + " does not exist");
                    example.put("instance", "/api/products/" + PRODUCT);
                    example.put("productId", PRODUCT);
                }
                case ORDER_NOT_FOUND -> {
                    example.put("detail", "Order " + ORDER + " does not exist");
                    example.put("instance", "/api/orders/" + ORDER);
                    example.put("orderId", ORDER);
                }
                case METHOD_NOT_ALLOWED -> {
                    example.put("detail", "Method 'DELETE' is not supported.");
                    example.put("instance", "/api/products");
                }
                case NOT_ACCEPTABLE -> {
                    example.put("detail", "Acceptable representations: [application/json].");
                    example.put("instance", "/api/products/" + PRODUCT);
                }
                case ORDER_NOT_CHECKOUTABLE -> {
                    example.put("detail", "Order " + ORDER + " is REJECTED; only a CREATED order can be checked out");
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("orderId", ORDER);
                    example.put("orderStatus", "REJECTED");
                }
                case SOLD_OUT -> {
                    example.put(
                            "detail",
                            "Product " + PRODUCT + " has 0 units left, fewer than order " + ORDER + " asks; the order"
                                    + " stays CREATED and can be checked out again after a restock");
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("orderId", ORDER);
                    example.put("productId", PRODUCT);
                    example.put("available", 0);
                }
                case PAYLOAD_TOO_LARGE -> {
                    example.put(
                            "detail",
                            "The request body of 1048576 bytes is larger than the 16384 bytes this API reads");
                    example.put("instance", "/api/products");
                    example.put("maxBytes", 16384);
                }
                case UNSUPPORTED_MEDIA_TYPE -> {
                    example.put("detail", "Content-Type 'text/plain' is not supported.");
                    example.put("instance", "/api/products");
                }
                case AUTHENTICATION_UNAVAILABLE -> {
                    example.put(
                            "detail",
                            "The identity provider's signing keys could not be read to verify the bearer token;"
                                    + " retry later");
                    example.put("instance", "/api/orders/" + ORDER);
                }
                case BROKER_UNAVAILABLE -> {
                    example.put(
                            "detail",
                            "The checkout of order " + ORDER + " could not be handed to the message broker; the order"
                                    + " is unchanged, retry later");
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("orderId", ORDER);
                }
                case CHECKOUT_OUTCOME_UNKNOWN -> {
                    example.put(
                            "detail",
                            "The message broker did not confirm the checkout of order " + ORDER + " in time, and may"
                                    + " still have taken it. Retry the same checkout after Retry-After (it is"
                                    + " idempotent: the order is decided once), or read the order at /api/orders/"
                                    + ORDER + " to see whether it was decided; do not place a new order for it.");
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("orderId", ORDER);
                }
                case IDEMPOTENCY_KEY_REUSED -> {
                    example.put(
                            "detail",
                            "Idempotency key 9f1c2b7e-order-1 was used for another request within the last 24 hours:"
                                    + " send a new key for a new order, or this request's original body to get its order"
                                    + " again");
                    example.put("instance", "/api/orders");
                    example.put("orderId", ORDER);
                }
                case DATABASE_UNAVAILABLE -> {
                    example.put("detail", "The database failed during the checkout of order " + ORDER);
                    example.put("instance", "/api/orders/" + ORDER + "/checkout");
                    example.put("orderId", ORDER);
                }
                case INTERNAL_ERROR -> {
                    example.put("detail", "The request failed unexpectedly; the error has been logged");
                    example.put("instance", "/api/orders");
                }
            }
            return example;
        }
    }
}
