package dev.warden.bench;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.Ref;
import dev.warden.core.error.Violation;
import dev.warden.core.error.VisibleFailure;
import dev.warden.core.failure.Classifier;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentArguments;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.segment.Retention;
import dev.warden.core.shape.Extracted;
import dev.warden.core.shape.ProseViolations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import tools.jackson.databind.JsonNode;

/**
 * The parts of an upstream failure's path through the gateway (issue 36: a failing call cost 4.5x an
 * echo's CPU), on server-everything's answer to {@code get-sum} with a string for a number: the
 * caller's input as the sanitizer keeps it (arguments, the tool's published words, the server's tool
 * names), the text sanitized, the prose read for a violation, the code decided, the ref drawn, the
 * arguments as the incident keeps them, the incident written to the file store, and the answer
 * rendered. {@code refPerCharacter} is the way a ref was drawn before, measured beside its
 * replacement in the same run.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FailurePathBenchmark extends AverageTimeBenchmark {

    private static final String TEXT = "Input validation error: Invalid arguments for tool get-sum: Invalid input: "
            + "expected number, received string at a";
    private static final List<String> TOOLS = List.of("echo", "get-annotated-message", "get-env",
            "get-resource-links", "get-resource-reference", "get-structured-content", "get-sum", "get-tiny-image",
            "gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates",
            "trigger-long-running-operation", "trigger-elicitation-request", "trigger-sampling-request");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();
    private final JsonNode arguments = Json.mapper().readTree("{\"a\":\"not a number\",\"b\":1}");
    private final CallerInput caller = callerInput();
    private final VisibleFailure failure = new VisibleFailure(ErrorCode.VALIDATION_ERROR,
            "/a: expected number, received string", false,
            List.of(new Violation("/a", "expected number, received string")), Optional.empty(),
            new Ref("ref_abcdefghijkmnpqr"));
    private Path dir;
    private FileIncidentStore store;

    @Setup
    public void open() throws IOException {
        dir = Files.createTempDirectory("warden-failure-bench");
        // Retention keeps the directory small however many records a run writes.
        store = FileIncidentStore.open(dir, 4L * 1024 * 1024, false,
                new Retention(32L * 1024 * 1024, Duration.ofDays(1)), Clock.systemUTC());
    }

    @TearDown
    public void close() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public CallerInput callerInput() {
        List<String> tools = new ArrayList<>();
        for (String t : TOOLS) {
            tools.add(t);
            tools.add(t);
        }
        return CallerInput.of(arguments).and(List.of("get-sum", "Returns the sum of two numbers", "a", "b",
                "First number", "Second number")).andDirectories(List.of()).andTools(tools);
    }

    @Benchmark
    public SanitizedText sanitize() {
        return sanitizer.sanitize(TEXT, Policy.REDACT, ErrorCode.VALIDATION_ERROR, caller);
    }

    @Benchmark
    public Optional<Extracted> proseViolation() {
        return ProseViolations.read(TEXT, Set.of("a", "b"));
    }

    @Benchmark
    public Classifier.Decision classify() {
        return Classifier.decide(new Classifier.Evidence(Optional.empty(), Optional.of(ErrorCode.VALIDATION_ERROR),
                Optional.empty(), TEXT, Set.of("not a number"), Set.of("a", "b"),
                Classifier.withoutEvidence(Classifier.Answer.TOOL_RESULT), Optional.empty()));
    }

    @Benchmark
    public Ref ref() {
        return Ref.random();
    }

    /** How a ref was drawn before: a call into the SecureRandom for each of its 16 characters. */
    @Benchmark
    public String refPerCharacter() {
        String alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
        char[] chars = new char[16];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = alphabet.charAt(RANDOM.nextInt(alphabet.length()));
        }
        return "ref_" + new String(chars);
    }

    @Benchmark
    public String incidentArguments() {
        return IncidentArguments.of(arguments);
    }

    @Benchmark
    public Ref recordIncident() {
        Ref ref = Ref.random();
        store.record(Incident.ofText(ref, Instant.now(), ErrorCode.VALIDATION_ERROR, "tools/call",
                Optional.of("get-sum"), Optional.of("everything"), "MCP error -32602: " + TEXT, List.of())
                .withArguments("{\"a\":\"not a number\",\"b\":1}"));
        return ref;
    }

    /** The answer as the gateway renders it: the one renderer's result record, mapped to a tree. */
    @Benchmark
    public JsonNode render() {
        return Json.tree(ErrorRenderer.toolResult(failure, false));
    }
}
