package dev.warden.bench;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.sanitize.Sanitizer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.JsonNode;

/**
 * Time to sanitize (redact) one parsed JSON value of about {@code size} characters serialized, as the
 * gateway does with a message it has already decoded (parsing is the codec's cost, measured apart).
 * JSON decoded from strings ({@code json-in-json}) is parsed inside, and counted.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SanitizerJsonBenchmark {

    @Param({"json-benign", "json-mixed", "json-in-json", "json-wide", "json-deep", "json-escapes"})
    public String kind;

    @Param({"65536", "1048576"})
    public int size;

    private JsonNode input;
    private final Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Integer.MAX_VALUE / 2).build();

    @Setup
    public void setUp() {
        input = JsonInputs.of(kind, size);
    }

    @Benchmark
    public SanitizedJson redact() {
        return sanitizer.sanitizeJson(input, Policy.REDACT);
    }
}
