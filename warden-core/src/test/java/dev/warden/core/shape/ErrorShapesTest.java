package dev.warden.core.shape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ErrorCode;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ErrorShapesTest {

    private static final ErrorShapes SHAPES = ErrorShapes.ofDefaults();

    private static JsonNode json(String text) {
        return EmbeddedJson.decode(text).orElseThrow();
    }

    @Test
    void anUnknownShapeGivesNothing() {
        assertThat(SHAPES.read(json("{\"foo\": [1, 2], \"bar\": {\"baz\": \"qux\"}}"))).isEmpty();
        assertThat(SHAPES.read(json("[\"a\", \"b\"]"))).isEmpty();
    }

    @Test
    void aJsonRpcErrorWithNothingActionableGivesNothing() {
        assertThat(SHAPES.read(json("{\"code\": -32000, \"message\": \"Tool execution failed\"}"))).isEmpty();
    }

    @Test
    void proseIsNotJson() {
        assertThat(SHAPES.readText("Error: connection refused")).isEmpty();
        assertThat(EmbeddedJson.decode("{\"a\": 1} trailing")).isEmpty();
    }

    @Test
    void aRetryHintBesideTheShapeIsAttached() {
        Extracted e = SHAPES.read(json("{\"status\": 429, \"message\": \"slow down\", \"retry_after\": 2}")).orElseThrow();
        assertThat(e.code()).contains(ErrorCode.RATE_LIMITED);
        assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
    }

    @Test
    void retryAfterInMillisecondsAndAsProtobufDuration() {
        assertThat(RetryHints.of(json("{\"retryAfterMs\": 1500}"))).contains(Duration.ofMillis(1500));
        assertThat(RetryHints.of(json("{\"Retry-After\": \"3\"}"))).contains(Duration.ofSeconds(3));
        assertThat(RetryHints.of(json("{\"retryDelay\": \"0.25s\"}"))).contains(Duration.ofMillis(250));
        assertThat(RetryHints.of(json("{\"retry_after\": -1}"))).isEmpty();
    }

    @Test
    void anAbsurdRetryHintIsCapped() {
        assertThat(RetryHints.of(json("{\"retry_after\": 1e12}"))).contains(Extracted.MAX_RETRY_AFTER);
    }

    @Test
    void grpcCodeByName() {
        Extracted e = SHAPES.read(json("{\"code\": \"DEADLINE_EXCEEDED\", \"message\": \"deadline\"}")).orElseThrow();
        assertThat(e.code()).contains(ErrorCode.TIMEOUT);
    }

    @Test
    void awsSdkV3SerializedErrorIsThrottling() {
        Extracted e = SHAPES.read(json("{\"name\": \"ThrottlingException\", \"$fault\": \"client\","
                + " \"$metadata\": {\"httpStatusCode\": 400}, \"message\": \"Rate exceeded\"}")).orElseThrow();
        assertThat(e.code()).contains(ErrorCode.RATE_LIMITED);
    }

    @Test
    void fiveHundredsAreUpstreamErrors() {
        Extracted e = SHAPES.read(json("{\"statusCode\": 503, \"error\": \"Service Unavailable\"}")).orElseThrow();
        assertThat(e.code()).contains(ErrorCode.UPSTREAM_ERROR);
    }

    @Test
    void theBuilderNamesADuplicateShape() {
        assertThatThrownBy(() -> ErrorShapes.builder().addDefaults().add(new Named("zod")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'zod'").hasMessageContaining(Named.class.getName());
    }

    @Test
    void theBuilderRefusesABlankName() {
        assertThatThrownBy(() -> ErrorShapes.builder().add(new Named(" ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank name");
    }

    @Test
    void removingAnUnknownShapeListsTheKnownOnes() {
        assertThatThrownBy(() -> ErrorShapes.builder().addDefaults().remove("nope"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'nope'").hasMessageContaining("zod");
    }

    @Test
    void installedAddsServiceLoaderShapesAfterTheDefaults() {
        // src/test/resources/META-INF/services/dev.warden.core.shape.ErrorShape names TestTeapotShape.
        ErrorShapes installed = ErrorShapes.installed();
        assertThat(installed.names()).startsWith("jsonapi").endsWith("test-teapot");
        assertThat(installed.read(json("{\"teapot\": true}")).map(Extracted::shape)).contains("test-teapot");
    }

    @Test
    void aShapeThatThrowsIsSkipped() {
        ErrorShapes shapes = ErrorShapes.builder().add(new Named("broken") {
            @Override
            public Optional<Extracted> read(JsonNode value) {
                throw new IllegalStateException("bug");
            }
        }).addDefaults().build();
        assertThat(shapes.read(Samples.json("zod-issues.json")).map(Extracted::shape)).contains("zod");
    }

    private static class Named implements ErrorShape {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Optional<Extracted> read(JsonNode value) {
            return Optional.empty();
        }
    }
}
