package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.RawHttp;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Thousands of random and hostile requests ({@link HostileRequests}) against every endpoint that takes input. Whatever
 * comes in, the API answers below 500, every 4xx is an RFC 9457 problem with a type, a title and its status, and a
 * rejected request writes nothing: the row counts of product, orders and payment and the status of the order it
 * aimed at are the same after it as before. A checkout that names a parameter of the lab ({@code strategy},
 * {@code delayMs}, {@code maxAttempts}) is never accepted: the lab is off in production.
 *
 * <p>The run is seeded: {@code -Dfuzz.seed=...} replays one, {@code -Dfuzz.cases=...} changes its length. Findings
 * are grouped by endpoint and answer, with the first requests of each, so that one run shows everything it found.
 */
class HostileInputTests extends ApiTestSupport {

    private static final Logger log = LoggerFactory.getLogger(HostileInputTests.class);

    private static final long SEED = Long.getLong("fuzz.seed", 20_261_130L);
    private static final int CASES = Integer.getInteger("fuzz.cases", 3_000);
    private static final int EXAMPLES_PER_FINDING = 3;
    private static final Set<String> LAB_PARAMETERS = Set.of("strategy", "delayMs", "maxAttempts");

    @LocalServerPort
    private int port;

    private record Counts(long products, long orders, long payments) {}

    @Test
    void answersEveryHostileRequestBelow500WithAProblemAndWritesNothing() {
        var fixtures = new MutableFixtures(createProduct(1_000_000, "2.50"), "fuzz-owner-" + UUID.randomUUID());
        fixtures.placeOrder();
        var requests = new HostileRequests(new Random(SEED), fixtures);
        var http = new RawHttp(port, 10_000);
        var findings = new TreeMap<String, List<String>>();
        var answers = new TreeMap<String, Integer>();

        for (var i = 0; i < CASES; i++) {
            var next = requests.next();
            var before = counts();
            var statusBefore = next.targetsFixtureOrder() ? statusInDatabase(fixtures.orderId()) : null;
            RawHttp.Response response;
            try {
                response = http.send(next.request());
            } catch (UncheckedIOException ex) {
                record(findings, next, "no answer (" + ex.getCause().getMessage() + ")", null);
                continue;
            }
            answers.merge(next.endpoint() + " " + response.status() + " " + problemType(response), 1, Integer::sum);
            var finding = judge(response, before, counts(), statusBefore, next, fixtures);
            if (finding != null) {
                record(findings, next, finding, response);
            }
            if (!statusInDatabase(fixtures.orderId()).equals("CREATED")) {
                // a valid checkout slipped through and decided it; aim the next ones at a fresh order
                fixtures.placeOrder();
            }
        }

        log.info(
                "Seed {}: {} requests answered as\n{}",
                SEED,
                CASES,
                answers.entrySet().stream()
                        .map(entry -> "  %5d  %s".formatted(entry.getValue(), entry.getKey()))
                        .collect(Collectors.joining("\n")));
        assertThat(findings)
                .as(() -> "seed " + SEED + " found:\n" + describe(findings))
                .isEmpty();
    }

    private @Nullable String judge(
            RawHttp.Response response,
            Counts before,
            Counts after,
            @Nullable String statusBefore,
            HostileRequests.Case next,
            MutableFixtures fixtures) {
        var status = response.status();
        if (status >= 500) {
            return status + " " + problemType(response);
        }
        if (status < 200 || (status >= 300 && status < 400)) {
            return "unexpected status " + status;
        }
        if (status < 300) {
            return next.endpoint() == HostileRequests.Endpoint.CHECKOUT && namesALabParameter(next.request())
                    ? status + " to a checkout that names a lab parameter"
                    : null;
        }
        if (!response.contentType().startsWith("application/problem+json")) {
            return status + " answered as '" + response.contentType() + "', not as a problem";
        }
        var problem = response.jsonOrNull();
        if (problem == null
                || !problem.path("type").isString()
                || !problem.path("type").asString().startsWith(ProblemKind.TYPE_PREFIX)
                || !problem.path("title").isString()
                || problem.path("title").asString().isBlank()
                || problem.path("status").asInt() != status) {
            return status + " with a problem body missing its type, title or status";
        }
        if (!before.equals(after)) {
            return status + " " + problemType(response) + " but rows changed: " + before + " -> " + after;
        }
        if (statusBefore != null && !statusBefore.equals(statusInDatabase(fixtures.orderId()))) {
            return status + " " + problemType(response) + " but the order moved from " + statusBefore;
        }
        return null;
    }

    private static boolean namesALabParameter(RawHttp.Request request) {
        var target = request.target();
        var query = target.indexOf('?') < 0 ? "" : target.substring(target.indexOf('?') + 1);
        return Arrays.stream(query.split("&"))
                .map(parameter -> parameter.contains("=") ? parameter.substring(0, parameter.indexOf('=')) : parameter)
                .anyMatch(LAB_PARAMETERS::contains);
    }

    private static void record(
            Map<String, List<String>> findings,
            HostileRequests.Case next,
            String finding,
            RawHttp.@Nullable Response response) {
        var examples = findings.computeIfAbsent(next.endpoint() + ": " + finding, key -> new ArrayList<>());
        if (examples.size() < EXAMPLES_PER_FINDING) {
            examples.add("#" + next.number() + " " + next.request() + "\n      -> " + response);
        } else {
            examples.add("#" + next.number());
        }
    }

    private static String describe(Map<String, List<String>> findings) {
        return findings.entrySet().stream()
                .map(entry -> "- " + entry.getKey() + " (" + entry.getValue().size() + " requests)\n"
                        + entry.getValue().stream()
                                .limit(EXAMPLES_PER_FINDING)
                                .map(example -> "    " + example)
                                .collect(Collectors.joining("\n")))
                .collect(Collectors.joining("\n"));
    }

    private static String problemType(RawHttp.Response response) {
        JsonNode problem = response.contentType().contains("json") ? response.jsonOrNull() : null;
        if (problem == null || !problem.path("type").isString()) {
            return "-";
        }
        return problem.path("type").asString().replace(ProblemKind.TYPE_PREFIX, "");
    }

    private Counts counts() {
        return jdbc.sql("""
                        SELECT (SELECT count(*) FROM product) AS products,
                               (SELECT count(*) FROM orders) AS orders,
                               (SELECT count(*) FROM payment) AS payments
                        """)
                .query((row, rowNumber) ->
                        new Counts(row.getLong("products"), row.getLong("orders"), row.getLong("payments")))
                .single();
    }

    /** The product and owner the requests aim at, and the owner's CREATED order, replaced once decided. */
    private final class MutableFixtures implements HostileRequests.Fixtures {

        private final UUID productId;
        private final String ownerId;
        private UUID orderId = new UUID(0, 0);

        MutableFixtures(UUID productId, String ownerId) {
            this.productId = productId;
            this.ownerId = ownerId;
        }

        void placeOrder() {
            orderId = UUID.randomUUID();
            jdbc.sql("INSERT INTO orders (id, user_id, product_id, quantity) VALUES (:id, :userId, :productId, 1)")
                    .param("id", orderId)
                    .param("userId", ownerId)
                    .param("productId", productId)
                    .update();
        }

        @Override
        public UUID productId() {
            return productId;
        }

        @Override
        public UUID orderId() {
            return orderId;
        }

        @Override
        public String ownerId() {
            return ownerId;
        }
    }
}
