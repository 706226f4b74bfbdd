package dev.warden.bench;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedText;
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

/** Time to sanitize (redact) one input of {@code size} characters. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SanitizerBenchmark {

    @Param({"mixed", "benign", "near-stack", "near-path", "near-database", "near-secret", "near-topology",
            "near-injection"})
    public String kind;

    @Param({"65536", "1048576"})
    public int size;

    private String input;
    // No length cap, so the whole input is processed and time can be compared across sizes.
    private final Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Integer.MAX_VALUE / 2).build();

    @Setup
    public void setUp() {
        input = Inputs.of(kind, size);
    }

    @Benchmark
    public SanitizedText redact() {
        return sanitizer.sanitize(input, Policy.REDACT);
    }
}
