package dev.warden.bench;

import dev.warden.core.shape.EmbeddedJson;
import dev.warden.core.shape.ErrorShapes;
import dev.warden.core.shape.Extracted;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * Actionable extraction, which runs on every failing call: a JSON-RPC error whose data is JSON:API
 * (issue 14's case, tree already parsed), an error with nothing to extract (the common miss), a Zod
 * issue list, and the double-encoded text block decoded then read.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ErrorShapesBenchmark extends AverageTimeBenchmark {

    private static final String JSON_API = "{\"code\":-32000,\"message\":\"Tool execution failed\",\"data\":"
            + "{\"errors\":[{\"status\":\"422\",\"code\":\"invalid_attribute\",\"title\":\"Invalid Attribute\","
            + "\"detail\":\"must be a valid email\",\"source\":{\"pointer\":\"/data/attributes/email\"}}]}}";

    private final ErrorShapes shapes = ErrorShapes.ofDefaults();
    private final JsonNode jsonApi = EmbeddedJson.decode(JSON_API).orElseThrow();
    private final JsonNode miss = EmbeddedJson.decode(
            "{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"detail\":{\"stack\":\"at x\"}}}").orElseThrow();
    private final JsonNode zod = EmbeddedJson.decode("{\"issues\":[{\"code\":\"invalid_type\",\"path\":[\"name\"],"
            + "\"message\":\"Required\"},{\"code\":\"invalid_format\",\"path\":[\"email\"],\"message\":\"Invalid email\"},"
            + "{\"code\":\"too_small\",\"path\":[\"age\"],\"message\":\"Too small\"}]}").orElseThrow();
    private final String doubleEncoded = jsonString(jsonString(jsonApi.get("data").toString()));

    private static String jsonString(String s) {
        return tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(s).toString();
    }

    @Benchmark
    public Optional<Extracted> jsonApiError() {
        return shapes.read(jsonApi);
    }

    @Benchmark
    public Optional<Extracted> nothingToExtract() {
        return shapes.read(miss);
    }

    @Benchmark
    public Optional<Extracted> zodIssues() {
        return shapes.read(zod);
    }

    @Benchmark
    public Optional<Extracted> doubleEncodedText() {
        return shapes.readText(doubleEncoded);
    }
}
