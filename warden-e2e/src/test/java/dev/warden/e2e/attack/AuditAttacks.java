package dev.warden.e2e.attack;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden audit} (the packaged launcher, its default 512 MiB heap) against a hostile server
 * ({@code listing-server.mjs}) that attacks it through what it lists (issue 30, finding 10). The
 * target is the audit process itself, which ends by itself: the attack waits for it and judges how
 * it ended, its report (JSON) and its exit code under {@code --fail-on high}.
 */
final class AuditAttacks {

    /** How long an audit may take before the attack gives up on it (a rate of 1,000/s, a budget of 500). */
    private static final Duration GUARD = Duration.ofMinutes(4);
    private static final List<String> OPTIONS = List.of("--format", "json", "--fail-on", "high", "--rate", "1000",
            "--timeout", "5s");

    private AuditAttacks() {
    }

    static List<Attack> all() {
        return List.of(manyTools(), pagesForEver());
    }

    /** 50,000 tools: every tool's probes were planned before the budget applied (OutOfMemoryError, no report). */
    static Attack manyTools() {
        return audit("audit: 50,000 tools listed", "the server lists 50,000 tools on one page (budget 500)",
                List.of("--tools", "50000"), (report, exit, tally) -> {
                    if (exit != 0 && exit != 1) {
                        tally.problem("exit " + exit + ": a server that lists many tools was not graded");
                    }
                    if (!ruleIds(report).contains("WDN-S010")) {
                        tally.problem("the report does not say the listing was cut (WDN-S010)");
                    }
                    tally.note("grade " + report.path("grade").path("letter").asString("?") + ", "
                            + report.path("coverage").path("summary").asString(""));
                });
    }

    /** [] with a fresh nextCursor for ever: the budget went on pages, and the server was graded A, exit 0. */
    static Attack pagesForEver() {
        return audit("audit: tools/list pages for ever", "tools/list answers [] with a fresh nextCursor, for ever",
                List.of("--pages-forever"), (report, exit, tally) -> {
                    if (exit != 3) {
                        tally.problem("exit " + exit + " under --fail-on high, grade "
                                + report.path("grade").path("letter").asString("?") + ": a server never probed passes the gate");
                    }
                    if (!"incomplete".equals(report.path("grade").path("letter").asString(""))) {
                        tally.problem("graded " + report.path("grade").path("letter").asString("?") + " though no tool was probed");
                    }
                    if (!ruleIds(report).contains("WDN-S009")) {
                        tally.problem("the report does not show the pagination loop (WDN-S009)");
                    }
                    tally.note(report.requests() + " requests");
                });
    }

    /** What the attack checks in an audit's report and exit code, once the audit ended with a report. */
    private interface Verdict {
        void judge(ReportRead report, int exit, Tally tally);
    }

    /** The JSON report as read. */
    private record ReportRead(JsonNode doc) {
        JsonNode path(String field) {
            return doc.path(field);
        }

        int requests() {
            return doc.path("requests").asInt(-1);
        }
    }

    private static List<String> ruleIds(ReportRead report) {
        List<String> ids = new ArrayList<>();
        report.path("findings").forEach(f -> ids.add(f.path("ruleId").asString("")));
        return ids;
    }

    /**
     * An attack on {@code warden audit} of the listing server run with {@code serverArgs}: the audit
     * must end within {@link #GUARD}, with no OutOfMemoryError, a report (one answer expected), and
     * whatever {@code verdict} asks of it.
     */
    private static Attack audit(String name, String what, List<String> serverArgs, Verdict verdict) {
        return new Attack(name, what, scale -> Target.audit(OPTIONS, serverArgs), Optional.empty(),
                Attack.RSS_BOUND_MIB, false, (target, scale, tally) -> {
                    if (!target.process.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)) {
                        tally.problem("the audit did not end within " + GUARD.toMinutes() + " min");
                        tally.counted(1, 0);
                        return;
                    }
                    int exit = target.process.exitValue();
                    String err = read(target.dataDir.resolve("audit.err"));
                    String out = read(target.dataDir.resolve("audit.out"));
                    if (err.contains("OutOfMemoryError")) {
                        tally.problem("the audit ran out of memory (OutOfMemoryError), exit " + exit);
                    }
                    JsonNode doc;
                    try {
                        doc = Json.mapper().readTree(out);
                    } catch (RuntimeException e) {
                        doc = null;
                    }
                    if (doc == null || !doc.isObject() || !doc.has("grade")) {
                        tally.problem("no report (exit " + exit + ")");
                        tally.counted(1, 0);
                        return;
                    }
                    tally.counted(1, 1);
                    verdict.judge(new ReportRead(doc), exit, tally);
                    tally.note("exit " + exit);
                });
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
