package dev.warden.cli;

import dev.warden.core.incident.IncidentJson;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import java.io.PrintWriter;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ObjectNode;

/** {@code warden sanitize}: untrusted text on stdin, safe text on stdout. */
@Command(name = "sanitize", mixinStandardHelpOptions = true,
        description = {"Reads text on stdin and writes it sanitized to stdout: stack traces removed, database "
                + "errors replaced by safe messages, secrets, paths and internal addresses redacted.",
                "Invalid UTF-8 is repaired; the output is not length-capped."})
final class SanitizeCommand implements Callable<Integer> {

    @Option(names = "--policy", defaultValue = "redact", paramLabel = "POLICY",
            description = "redact (default), strict or passthrough.")
    String policy;

    @Option(names = "--json", description = "Print one JSON object: output, policy, findings (category, kind, span).")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Policy chosen;
        try {
            chosen = Policy.parse(policy);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("warden sanitize: " + e.getMessage());
            return 2;
        }
        byte[] input = System.in.readAllBytes();
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(java.nio.ByteBuffer.wrap(input)).toString();
        // An operator scrubbing a log wants all of it: no cap beyond the input's own size.
        Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Math.max(64, text.length() + 64)).build();
        SanitizedText result = sanitizer.sanitize(text, chosen);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode node = Json.object();
            node.put("output", result.output());
            node.put("policy", result.appliedPolicy().name().toLowerCase(java.util.Locale.ROOT));
            result.suggestedCode().ifPresent(c -> node.put("code", c.name()));
            node.set("findings", IncidentJson.findingsJson(result.findings()));
            out.println(node);
        } else {
            out.print(result.output());
            if (!result.output().endsWith("\n") && text.endsWith("\n")) {
                out.println();
            }
        }
        out.flush();
        return 0;
    }
}
