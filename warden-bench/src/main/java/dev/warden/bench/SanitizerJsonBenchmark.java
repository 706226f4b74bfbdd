package dev.warden.bench;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import tools.jackson.databind.JsonNode;

/**
 * Time to sanitize (redact) one parsed JSON value of about {@code size} characters serialized, as the
 * gateway does with a message it has already decoded (parsing is the codec's cost, measured apart).
 * JSON decoded from strings ({@code json-in-json}) is parsed inside, and counted.
 */
public class SanitizerJsonBenchmark extends SanitizerState {

    @Param({"json-benign", "json-mixed", "json-in-json", "json-wide", "json-deep", "json-escapes"})
    public String kind;

    private JsonNode input;

    @Setup
    public void setUp() {
        input = JsonInputs.of(kind, size);
    }

    @Benchmark
    public SanitizedJson redact() {
        return sanitizer.sanitizeJson(input, Policy.REDACT);
    }
}
