package dev.warden.core.shape;

import static dev.warden.core.shape.Samples.v;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Issue 14's case: the JSON:API pointer and detail survive in every shape the upstream sends them. */
class Issue14JsonApiTest {

    private static final ErrorShapes SHAPES = ErrorShapes.ofDefaults();

    private static void assertEmailViolation(Extracted e) {
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(v("/data/attributes/email", "must be a valid email"));
    }

    @Test
    void theJsonRpcErrorWithJsonApiData() {
        assertEmailViolation(SHAPES.read(Samples.json("issue14-jsonapi-tool-error.json")).orElseThrow());
    }

    @Test
    void theErrorObjectAloneIsReadThroughItsData() {
        JsonNode error = Samples.json("issue14-jsonapi-tool-error.json").get("error");
        assertEmailViolation(SHAPES.read(error).orElseThrow());
    }

    @Test
    void theDoubleEncodedIsErrorTextDecodesToTheSameViolation() {
        String text = Samples.json("issue14-jsonapi-double-encoded.json").get("content").get(0).get("text").stringValue();
        assertEmailViolation(SHAPES.readText(text).orElseThrow());
    }

    @Test
    void dataHoldingTheObjectAsJsonTextIsDecoded() {
        JsonNode error = Samples.json("issue14-jsonapi-tool-error.json").get("error").deepCopy();
        String data = error.get("data").toString();
        ((tools.jackson.databind.node.ObjectNode) error).put("data", data);
        assertEmailViolation(SHAPES.read(error).orElseThrow());
    }
}
