package dev.warden.bench;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedText;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** Time to sanitize (redact) one input of {@code size} characters. */
public class SanitizerBenchmark extends SanitizerState {

    @Param({"mixed", "benign", "near-stack", "near-path", "near-database", "near-secret", "near-topology",
            "near-injection"})
    public String kind;

    private String input;

    @Setup
    public void setUp() {
        input = Inputs.of(kind, size);
    }

    @Benchmark
    public SanitizedText redact() {
        return sanitizer.sanitize(input, Policy.REDACT);
    }
}
