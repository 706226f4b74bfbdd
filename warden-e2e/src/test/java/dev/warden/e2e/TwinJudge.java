package dev.warden.e2e;

import dev.warden.e2e.TwinRuns.Audit;
import dev.warden.e2e.TwinRuns.Kind;
import dev.warden.e2e.TwinRuns.Language;
import dev.warden.e2e.TwinRuns.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The rules of docs/audit-twins.md, written before the first trial and not changed after it: per
 * class, the findings that make a vulnerable twin found (rule, CWE and, where named, tool), and the
 * rules any finding of which on a safe twin is a false positive.
 */
final class TwinJudge {

    private TwinJudge() {
    }

    /** A finding the class needs: its rule id, CWE, and the tool it must name (empty: any or none). */
    record Expected(String rule, int cwe, Optional<String> tool) {
        boolean matches(JsonNode finding) {
            return rule.equals(finding.path("ruleId").asString("")) && finding.path("cwe").asInt(-1) == cwe
                    && tool.map(t -> t.equals(finding.path("tool").asString(""))).orElse(true);
        }
    }

    enum TwinClass {
        COMMAND_INJECTION("command injection", Kind.STDIO, expect("WDN-X001", 78, "twin_ping")),
        PATH_TRAVERSAL("path traversal", Kind.STDIO, expect("WDN-X002", 22, "twin_read_report")),
        SSRF("SSRF", Kind.STDIO, expect("WDN-X003", 918, "twin_fetch_page")),
        SQL_INJECTION("SQL injection", Kind.STDIO, expect("WDN-X004", 89, "twin_find_customer")),
        INSTRUCTIONS_IN_RESULTS("instructions in results", Kind.STDIO, expect("WDN-L009", 74, "twin_get_document")),
        PERSONAL_DATA("personal data", Kind.STDIO, expect("WDN-L010", 359, "twin_support_contact"),
                new Expected("WDN-L102", 532, Optional.empty())),
        LOOKALIKE_NAME("lookalike names", Kind.STDIO, new Expected("WDN-D007", 451, Optional.empty())),
        LEGACY_TRANSPORT("HTTP+SSE transport", Kind.SSE, new Expected("WDN-H005", 477, Optional.empty())),
        AUTHORIZATION("authorization", Kind.NOTES, expect("WDN-X005", 639, "twin_get_note"));

        final String label;
        final Kind kind;
        final List<Expected> expected;

        TwinClass(String label, Kind kind, Expected... expected) {
            this.label = label;
            this.kind = kind;
            this.expected = List.of(expected);
        }

        boolean ofThisClass(JsonNode finding) {
            return expected.stream().anyMatch(e -> e.rule().equals(finding.path("ruleId").asString("")));
        }
    }

    private static Expected expect(String rule, int cwe, String tool) {
        return new Expected(rule, cwe, Optional.of(tool));
    }

    enum Verdict {
        FOUND("found"), MISSED("missed"), CLEAN("clean"), FALSE_POSITIVE("false positive"), NOT_AUDITED("not audited");

        final String label;

        Verdict(String label) {
            this.label = label;
        }

        boolean passes() {
            return this == FOUND || this == CLEAN;
        }
    }

    static Verdict verdict(TwinClass twinClass, Audit audit) {
        if (!audit.audited()) {
            return Verdict.NOT_AUDITED;
        }
        List<JsonNode> findings = audit.findings();
        if (audit.variant() == Variant.VULNERABLE) {
            boolean all = twinClass.expected.stream().allMatch(e -> findings.stream().anyMatch(e::matches));
            return all ? Verdict.FOUND : Verdict.MISSED;
        }
        return findings.stream().anyMatch(twinClass::ofThisClass) ? Verdict.FALSE_POSITIVE : Verdict.CLEAN;
    }

    /** Class × variant per language of the set, as a Markdown table (the form docs/audit-twins.md keeps). */
    static String table(List<Language> languages, Map<Kind, Map<Language, Map<Variant, Audit>>> audits) {
        List<String> lines = new ArrayList<>();
        StringBuilder head = new StringBuilder("| class |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (Language language : languages) {
            for (Variant variant : Variant.values()) {
                head.append(' ').append(language.label).append(' ').append(variant.name().toLowerCase(Locale.ROOT)).append(" |");
                rule.append(" --- |");
            }
        }
        lines.add(head.toString());
        lines.add(rule.toString());
        for (TwinClass twinClass : TwinClass.values()) {
            StringBuilder row = new StringBuilder("| ").append(twinClass.label).append(" |");
            for (Language language : languages) {
                for (Variant variant : Variant.values()) {
                    row.append(' ').append(verdict(twinClass, audits.get(twinClass.kind).get(language).get(variant)).label)
                            .append(" |");
                }
            }
            lines.add(row.toString());
        }
        return String.join("\n", lines);
    }
}
