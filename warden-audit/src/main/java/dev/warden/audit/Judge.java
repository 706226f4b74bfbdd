package dev.warden.audit;

import dev.warden.audit.canary.Verdict;
import dev.warden.audit.internal.LeakScan;
import dev.warden.audit.internal.Probe;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.detection.Category;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads findings from what came back: leaks (the sanitizer's detectors), the caller's hostile input
 * reflected, and how the failure is shaped (a tool failure as a JSON-RPC error, a protocol error as
 * isError, no machine-readable code, a code outside the spec's, no answer at all).
 */
final class Judge {

    /** The JSON-RPC codes a server may send: the standard ones and those an MCP version defines. */
    private static final Set<Integer> DEFINED = Set.of(-32700, -32600, -32601, -32602, -32603, -32002, -32020,
            -32021, -32022, -32042);

    private final LeakScan scan;
    private final FindingSet findings;

    Judge(LeakScan scan, FindingSet findings) {
        this.scan = scan;
        this.findings = findings;
    }

    FindingSet findings() {
        return findings;
    }

    /** Leaks and reflections in an answer; {@code hostile} are the hostile values the request carried. */
    void leaks(ObjectNode message, Optional<String> tool, String probe, CallerInput caller, List<String> hostile) {
        for (LeakScan.Leak leak : scan.answer(message, caller)) {
            leak(leak, tool, probe);
        }
        for (LeakScan.Reflection r : scan.reflections(message, hostile)) {
            findings.add(Rule.REFLECTED_INPUT, tool, probe, r.location(),
                    "The error repeats a hostile value the caller sent, verbatim",
                    Evidence.of("reflected-input", r.value()));
        }
    }

    /** What the canaries proved (see {@link dev.warden.audit.canary.CanaryJudge}): injections high, a tool's design a note. */
    void verdicts(List<Verdict> verdicts) {
        for (Verdict v : verdicts) {
            Rule rule = switch (v.kind()) {
                case COMMAND_INJECTION -> Rule.COMMAND_INJECTION;
                case PATH_TRAVERSAL -> Rule.PATH_TRAVERSAL;
                case SERVER_SIDE_REQUEST -> Rule.SERVER_SIDE_REQUEST;
                case SQL_INJECTION -> Rule.SQL_INJECTION;
                case CALLER_CODE -> Rule.CALLER_CODE_BY_DESIGN;
            };
            findings.add(rule, v.tool(), v.probe(), v.location(), v.message(),
                    Evidence.of(v.evidenceCategory(), v.evidenceValue()));
        }
    }

    void notification(ObjectNode message, Optional<String> tool, String probe, CallerInput caller) {
        for (LeakScan.Leak leak : scan.notification(message, caller)) {
            leak(leak, tool, probe);
        }
    }

    void text(String text, String location, Optional<String> tool, String probe, CallerInput caller) {
        for (LeakScan.Leak leak : scan.text(text, location, caller)) {
            leak(leak, tool, probe);
        }
    }

    /**
     * What a stdio server writes to stderr: read as any text; a credential is {@link Rule#LEAK_TO_STDERR},
     * anything else the sanitizer would hide from a peer is {@link Rule#DETAIL_ON_STDERR} (stderr is
     * the operator's log, where traces and paths belong), what was found named in the message.
     */
    void stderr(String text, Optional<String> tool, String probe, CallerInput caller) {
        for (LeakScan.Leak leak : scan.text(text, "stderr", caller)) {
            Rule rule = leak.category() == Category.SECRET ? Rule.LEAK_TO_STDERR : Rule.DETAIL_ON_STDERR;
            findings.add(rule, tool, probe, leak.location(),
                    "The server's stderr shows " + leak.category().label() + " details (" + leak.kind() + "): "
                            + rule(leak.category()).id() + " in an answer",
                    Evidence.of(leak.category().label(), leak.span()));
        }
    }

    /** The shape of the answer to a tools/call probe (or a resources/prompts one). */
    void shape(Probe probe, ObjectNode message) {
        Optional<String> tool = probe.tool();
        JsonNode error = message.path("error");
        JsonNode result = message.path("result");
        boolean isError = result.path("isError").asBoolean(false);
        if (probe.expectsToolFailure() && error.isObject()) {
            findings.add(Rule.TOOL_ERROR_AS_PROTOCOL_ERROR, tool, probe.description(), "/error",
                    "Arguments the tool refuses were answered with JSON-RPC error " + error.path("code").asInt()
                            + ", not an isError result the model can correct");
        }
        int code = error.path("code").asInt(0);
        if (probe.kind() == Probe.Kind.UNKNOWN_TOOL && error.isObject() && code != -32602 && code != -32601) {
            findings.add(Rule.UNKNOWN_TOOL_WRONG_CODE, tool, probe.description(), "/error/code",
                    "A call to a tool that does not exist was answered with JSON-RPC error " + code
                            + ", which says the server failed, not that the call named no tool");
        }
        if (probe.kind() == Probe.Kind.UNKNOWN_TOOL && result.isObject()) {
            findings.add(Rule.PROTOCOL_ERROR_AS_TOOL_ERROR, tool, probe.description(), "/result",
                    isError ? "A call to a tool that does not exist was answered as an isError result"
                            : "A call to a tool that does not exist was answered as a success");
        }
        if (tool.isPresent() && "tools/call".equals(probe.method()) && (isError || error.isObject())
                && !hasMachineCode(message)) {
            String where = isError ? "/result" : error.has("data") ? "/error/data" : "/error";
            findings.add(Rule.NO_MACHINE_CODE, tool, probe.description(), where,
                    "The failure says what went wrong in prose only: no code a program can branch on");
        }
        legacyCode(message, tool, probe.description());
    }

    void legacyCode(ObjectNode message, Optional<String> tool, String probe) {
        JsonNode code = message.path("error").path("code");
        if (code.isNumber() && isLegacy(code.asInt())) {
            findings.add(Rule.LEGACY_ERROR_CODE, tool, probe, "/error/code",
                    "JSON-RPC error code " + code.asInt() + " is neither a standard code nor one MCP defines");
        }
    }

    void unanswered(Optional<String> tool, String probe, Duration timeout) {
        findings.add(Rule.UNANSWERED, tool, probe, "/",
                "No answer within " + timeout.toMillis() + " ms (the call timeout)");
    }

    void stopped(Optional<String> tool, String probe) {
        findings.add(Rule.UNANSWERED, tool, probe, "/",
                "The connection closed before the request was answered: the server stopped");
    }

    /** Whether {@code code} is one a server should not send: the legacy band, or a reserved code not defined. */
    static boolean isLegacy(int code) {
        boolean reserved = code >= -32768 && code <= -32000;
        return reserved && !DEFINED.contains(code);
    }

    /**
     * Whether a failure carries a code a program can branch on: {@code error.data.code}, or in an
     * isError result a {@code code} or {@code error.code} in its structured content or in JSON text.
     */
    static boolean hasMachineCode(ObjectNode message) {
        JsonNode error = message.path("error");
        if (error.isObject()) {
            return isCode(error.path("data").path("code"));
        }
        JsonNode result = message.path("result");
        if (carriesCode(result.path("structuredContent"))) {
            return true;
        }
        for (JsonNode content : result.path("content")) {
            String text = content.path("text").asString("");
            if (text.startsWith("{") && text.length() < 65_536) {
                try {
                    if (carriesCode(Json.mapper().readTree(text))) {
                        return true;
                    }
                } catch (RuntimeException e) {
                    // prose that starts with a brace
                }
            }
        }
        return false;
    }

    private static boolean carriesCode(JsonNode node) {
        return isCode(node.path("code")) || isCode(node.path("error").path("code"));
    }

    private static boolean isCode(JsonNode code) {
        return (code.isString() && !code.asString().isBlank()) || code.isIntegralNumber();
    }

    /**
     * The paths and hosts a successful answer to a valid call gives the caller (every string of
     * the result but {@code _meta}, less what the caller sent), which the server thereby publishes:
     * see {@link FindingSet#published}. Only valid calls: what a hostile probe makes a server
     * return (a traversal that reads /etc/passwd) is a finding's matter, not the server's word.
     */
    void published(ObjectNode message, CallerInput caller) {
        JsonNode result = message.path("result");
        if (!result.isObject() || result.path("isError").asBoolean(false)) {
            return;
        }
        List<String> strings = new ArrayList<>();
        result.properties().forEach(p -> {
            if (!p.getKey().equals("_meta") && strings.size() < MAX_PUBLISHED_STRINGS) {
                strings.addAll(JsonStrings.of(p.getValue(), MAX_PUBLISHED_STRINGS - strings.size(), 32));
            }
        });
        for (String s : strings) {
            for (LeakScan.Leak leak : scan.text(s, "/result", caller)) {
                if (leak.category() == Category.FILE_PATH || leak.category() == Category.TOPOLOGY) {
                    findings.published(leak.span());
                }
            }
        }
    }

    private static final int MAX_PUBLISHED_STRINGS = 1_000;

    /**
     * Longer than any path Linux opens (PATH_MAX, 4096 bytes): such a "path" is one the server built
     * around an over-long argument (the caller's own text, which a caller-input match, bounded for
     * the gateway's sake, no longer recognises): only the part before the caller's text is the server's.
     */
    private static final int PATH_MAX = 4096;

    private void leak(LeakScan.Leak leak, Optional<String> tool, String probe) {
        String span = leak.span();
        if (leak.category() == Category.FILE_PATH && span.length() > PATH_MAX) {
            // The audit's over-long values start with its marker: what comes before it is the
            // server's own directory (ENAMETOOLONG: '/srv/app/data/wdnprobe-…'), and that is the leak.
            int caller = span.indexOf(AuditRun.MARKER_PREFIX);
            if (caller <= 1) {
                return;
            }
            span = span.substring(0, caller);
        }
        Rule rule = rule(leak.category());
        findings.add(new Finding(rule, tool, probe, leak.location(), rule.title() + " (" + leak.kind() + ")",
                Optional.of(Evidence.of(leak.category().label(), span))), span);
    }

    private static Rule rule(Category category) {
        return switch (category) {
            case STACK_TRACE -> Rule.LEAK_STACK_TRACE;
            case SECRET -> Rule.LEAK_SECRET;
            case FILE_PATH -> Rule.LEAK_PATH;
            case DATABASE -> Rule.LEAK_DATABASE;
            case TOPOLOGY -> Rule.LEAK_TOPOLOGY;
            case INJECTION -> Rule.LEAK_INJECTION;
            case PII -> Rule.LEAK_SECRET; // not scanned for (LeakScan skips it); mapped for completeness
        };
    }
}
