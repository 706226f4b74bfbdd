package dev.warden.cli;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.IncidentJson;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.JsonFinding;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.error.Violation;
import dev.warden.core.shape.ErrorShapes;
import dev.warden.core.shape.Extracted;
import dev.warden.core.shape.ProseViolations;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code warden sanitize}: untrusted text on stdin, safe text on stdout. */
@Command(name = "sanitize", mixinStandardHelpOptions = true,
        description = {"Reads text on stdin and writes it sanitized to stdout: stack traces removed, database "
                + "errors replaced by safe messages, secrets, paths and internal addresses redacted.",
                "A JSON document, JSON lines, and log lines that end with a JSON object are sanitized as JSON: "
                        + "each string where it stands, JSON inside strings decoded, secret-named members redacted; "
                        + "the output is valid JSON of the same shape, byte for byte the input where nothing was found.",
                "Invalid UTF-8 is repaired; the output is not length-capped."})
final class SanitizeCommand implements Callable<Integer> {

    private static final ErrorShapes SHAPES = ErrorShapes.installed();

    @Option(names = "--policy", defaultValue = "redact", paramLabel = "POLICY",
            description = "redact (default), strict or passthrough.")
    String policy;

    @Option(names = "--json", description = "Print one JSON object: output, policy, code, findings (category, kind, "
            + "span; line and JSON pointer when the input carried JSON) and, when the input held a well-known error "
            + "shape (JSON:API, problem details, Zod, ajv…), the violations read from it (pointer, message).")
    boolean json;

    @Option(names = "--caller", paramLabel = "JSON",
            description = "The arguments of the request that failed, as JSON: what the caller sent may come back "
                    + "(an identifier of its query, the path it asked for); secrets and injections are caught anyway.")
    String caller;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where the input comes from (a test gives its own). */
    InputStream stdin = System.in;

    @Override
    public Integer call() throws Exception {
        Policy chosen;
        try {
            chosen = Policy.parse(policy);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("warden sanitize: " + e.getMessage());
            return 2;
        }
        byte[] input = stdin.readAllBytes();
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(input)).toString();
        // An operator scrubbing a log wants all of it: no cap beyond the input's own size.
        Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Math.max(64, text.length() + 64)).build();
        List<SanitizeInput> pieces = SanitizeInput.of(text);
        CallerInput sent;
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        try {
            JsonNode arguments = caller == null ? Json.object() : Json.mapper().readTree(caller);
            sent = caller == null ? CallerInput.none() : CallerInput.of(arguments);
            if (arguments.isObject()) {
                arguments.propertyNames().forEach(names::add);
            }
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("warden sanitize: --caller is not JSON");
            return 2;
        }
        Run run = new Run(sanitizer, chosen, pieces.size() > 1 || !(pieces.getFirst() instanceof SanitizeInput.Text),
                sent, names);
        for (SanitizeInput piece : pieces) {
            run.add(piece);
        }
        PrintWriter out = spec.commandLine().getOut();
        String output = run.output.toString();
        if (json) {
            ObjectNode node = Json.object();
            node.put("output", output);
            node.put("policy", run.applied.name().toLowerCase(Locale.ROOT));
            run.code.ifPresent(c -> node.put("code", c.name()));
            node.set("findings", run.findings);
            if (!run.violations.isEmpty()) {
                node.set("violations", run.violations);
            }
            out.println(node);
        } else {
            out.print(output);
            if (!output.endsWith("\n") && text.endsWith("\n")) {
                out.println();
            }
        }
        out.flush();
        return 0;
    }

    /** The pieces' outputs joined, the strictest policy applied, the first code suggested, all findings. */
    private static final class Run {
        private final Sanitizer sanitizer;
        private final Policy policy;
        private final boolean located;
        final StringBuilder output = new StringBuilder();
        final ArrayNode findings = Json.mapper().getNodeFactory().arrayNode();
        Policy applied;
        Optional<ErrorCode> code = Optional.empty();

        private final CallerInput caller;
        /** What the model would be told to fix: the violations read from a well-known error shape in the input. */
        final ArrayNode violations = Json.mapper().getNodeFactory().arrayNode();

        /** The caller's argument names: what a prose validation failure may point at. */
        private final java.util.Set<String> names;

        Run(Sanitizer sanitizer, Policy policy, boolean located, CallerInput caller, java.util.Set<String> names) {
            this.caller = caller;
            this.names = names;
            this.sanitizer = sanitizer;
            this.policy = policy;
            this.located = located;
            this.applied = policy;
        }

        void add(SanitizeInput piece) {
            switch (piece) {
                case SanitizeInput.Text t -> {
                    output.append(text(t.text(), t.line()));
                    if (t.text().endsWith("\n") && !output.isEmpty() && output.charAt(output.length() - 1) != '\n') {
                        output.append('\n');
                    }
                }
                case SanitizeInput.Document d -> {
                    output.append(tree(d.raw(), d.json(), d.line())).append(d.lineEnd());
                }
                case SanitizeInput.LogLine l -> {
                    output.append(text(l.tail().prefix(), l.line()))
                            .append(tree(l.rawJson(), l.tail().json(), l.line()))
                            .append(l.tail().suffix()).append(l.lineEnd());
                }
            }
        }

        /** The violations an input states, each message sanitized as the upstream's words it is. */
        private void report(Extracted extracted) {
            for (Violation v : extracted.violations()) {
                violations.addObject().put("pointer", v.pointer()).put("message",
                        sanitizer.sanitize(v.message(), policy, ErrorCode.VALIDATION_ERROR, caller).output());
            }
        }

        private String text(String text, int line) {
            SanitizedText result = sanitizer.sanitize(text, policy, ErrorCode.INTERNAL_ERROR, caller);
            ProseViolations.read(text, names).ifPresent(this::report);
            note(result.appliedPolicy(), result.suggestedCode());
            ArrayNode found = IncidentJson.findingsJson(result.findings());
            for (JsonNode f : found) {
                if (located) {
                    ((ObjectNode) f).put("line", line);
                }
                findings.add(f);
            }
            return result.output();
        }

        /** The sanitized value: {@code raw} itself when nothing changed, else written as the input was (pretty if it spanned lines). */
        private String tree(String raw, JsonNode value, int line) {
            SanitizedJson result = sanitizer.sanitizeJson(value, policy, ErrorCode.INTERNAL_ERROR, caller);
            SHAPES.read(value).ifPresent(this::report);
            note(result.appliedPolicy(), result.suggestedCode());
            for (JsonFinding f : result.findings()) {
                ObjectNode entry = findings.addObject().put("category", f.category().label())
                        .put("kind", f.finding().kind()).put("start", f.finding().start())
                        .put("end", f.finding().end()).put("line", line).put("pointer", f.pointer());
                if (f.embedded()) {
                    ArrayNode pointers = entry.putArray("pointers");
                    f.pointers().forEach(pointers::add);
                }
                if (f.inKey()) {
                    entry.put("key", true);
                }
            }
            if (result.value() == value) {
                return raw;
            }
            int lead = 0;
            while (Character.isWhitespace(raw.charAt(lead)) || raw.charAt(lead) == '\uFEFF') {
                lead++;
            }
            int trail = raw.length();
            while (trail > lead && Character.isWhitespace(raw.charAt(trail - 1))) {
                trail--;
            }
            String written = raw.substring(lead, trail).indexOf('\n') >= 0
                    ? Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(result.value())
                    : Json.write(result.value());
            return raw.substring(0, lead) + written + raw.substring(trail);
        }

        private void note(Policy appliedHere, Optional<ErrorCode> suggested) {
            if (appliedHere == Policy.STRICT) {
                applied = Policy.STRICT;
            }
            if (code.isEmpty()) {
                code = suggested;
            }
        }
    }
}
