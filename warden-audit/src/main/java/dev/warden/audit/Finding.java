package dev.warden.audit;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing the auditor found.
 *
 * @param rule     what it is (id, severity, CWE, remediation)
 * @param tool     the tool (resource, prompt) it concerns, by the server's own name; empty for the server as a whole
 * @param probe    what was sent to find it, in words ({@code "required property 'path' missing"}); never a secret
 * @param location where in the answer: a JSON pointer into the JSON-RPC message
 *                 ({@code /error/data/detail}, {@code /result/content/0/text}), or {@code header:Server},
 *                 {@code stderr}, {@code definition:/tools/3/description}
 * @param message  what was found, in the auditor's own words (never the leaked text)
 * @param evidence what was leaked, as category and fingerprint, when something was
 */
public record Finding(Rule rule, Optional<String> tool, String probe, String location, String message,
                      Optional<Evidence> evidence) {

    public Finding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(evidence, "evidence");
    }

    public Severity severity() {
        return rule.severity();
    }
}
