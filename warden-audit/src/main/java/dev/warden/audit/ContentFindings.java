package dev.warden.audit;

import dev.warden.audit.internal.LeakScan;
import dev.warden.core.sanitize.CallerInput;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an answer says beyond failing: instructions aimed at the model in what a tool, a resource or
 * a prompt gives it ({@link Rule#INSTRUCTIONS_IN_CONTENT}; failures' are {@link Rule#LEAK_INJECTION}),
 * and personal data in answers ({@link Rule#PERSONAL_DATA}) and on stderr ({@link
 * Rule#PERSONAL_DATA_ON_STDERR}). The evidence is a category and a fingerprint, never the text.
 */
final class ContentFindings {

    private final LeakScan scan;
    private final FindingSet findings;
    /** The server's tool names: a result that says "use the search tool" of the server's own guides, not injects. */
    private Collection<String> tools = List.of();

    ContentFindings(LeakScan scan, FindingSet findings) {
        this.scan = scan;
        this.findings = findings;
    }

    void tools(Collection<String> names) {
        this.tools = List.copyOf(names);
    }

    /** Instructions and personal data in the answer to a probe about {@code subject} (a tool, resource or prompt). */
    void answer(ObjectNode message, Optional<String> subject, String probe, CallerInput caller) {
        for (LeakScan.Leak leak : scan.instructions(message, caller.andTools(tools))) {
            findings.add(Rule.INSTRUCTIONS_IN_CONTENT, subject, probe, leak.location(),
                    "What the model reads here carries instructions aimed at it (" + leak.kind() + ")",
                    Evidence.of("injection", leak.span()));
        }
        // One finding per place (as every rule): its message names every kind found there.
        Map<String, Set<String>> kinds = new LinkedHashMap<>();
        Map<String, String> first = new HashMap<>();
        for (LeakScan.Leak leak : scan.personal(message, caller)) {
            kinds.computeIfAbsent(leak.location(), l -> new TreeSet<>()).add(leak.kind());
            first.putIfAbsent(leak.location(), leak.span());
        }
        kinds.forEach((location, found) -> findings.add(Rule.PERSONAL_DATA, subject, probe, location,
                "The answer shows personal data (" + String.join(", ", found) + ") the caller did not send",
                Evidence.of("personal-data", first.get(location))));
    }

    /** Personal data in what a stdio server wrote to stderr, less what the audit sent. */
    void stderr(String text, String probe, CallerInput caller) {
        for (LeakScan.Leak leak : scan.personal(text, "stderr", caller)) {
            findings.add(Rule.PERSONAL_DATA_ON_STDERR, Optional.empty(), probe, leak.location(),
                    "The server's stderr shows personal data (" + leak.kind() + ")",
                    Evidence.of("personal-data", leak.span()));
        }
    }
}
