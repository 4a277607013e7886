package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import org.junit.jupiter.api.Test;

/** Errors that Spring MVC raises before any controller runs still answer as typed problem details. */
class ProblemDetailsTests extends ApiTestSupport {

    @Test
    void answersAnUnknownPathWithANotFoundProblem() {
        var response = api.get("/api/nothing-here");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:not-found");
        assertThat(problem.get("title").asString()).isEqualTo("Resource not found");
        assertThat(problem.get("status").asInt()).isEqualTo(404);
        assertThat(problem.get("detail").asString()).isEqualTo("No endpoint GET /api/nothing-here");
        assertThat(problem.get("instance").asString()).isEqualTo("/api/nothing-here");
    }

    @Test
    void answersAnUnsupportedMethodWithAMethodNotAllowedProblem() {
        var response = api.send("DELETE", "/api/products", null, "application/json");

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.header("Allow"))
                .hasValueSatisfying(allow -> assertThat(allow).contains("POST"));
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:method-not-allowed");
        assertThat(problem.get("title").asString()).isEqualTo("Method not allowed");
        assertThat(problem.get("detail").asString()).contains("DELETE");
    }

    @Test
    void answersAnUnsupportedMediaTypeWithAProblem() {
        var response = api.send("POST", "/api/products", "name=a", "text/plain");

        assertThat(response.status()).isEqualTo(415);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:unsupported-media-type");
        assertThat(problem.get("title").asString()).isEqualTo("Unsupported media type");
        assertThat(problem.get("detail").asString()).contains("text/plain");
    }

    @Test
    void answersMalformedJsonWithAProblemThatDoesNotLeakParserInternals() {
        var response = api.post("/api/products", "{\"name\": \"a\", ");

        assertThat(response.status()).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:malformed-request");
        assertThat(problem.get("title").asString()).isEqualTo("Malformed request");
        assertThat(problem.get("detail").asString()).isEqualTo("Request body is not valid JSON");
    }
}
