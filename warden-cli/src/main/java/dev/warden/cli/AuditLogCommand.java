package dev.warden.cli;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditQuery;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code warden incidents audit-log}: the audit records the gateway kept, newest first, by time,
 * tool, subject and outcome: every replica's from PostgreSQL, else the embedded log's JSON lines
 * under the data directory ({@code DIR/audit}), both read through one {@code AuditLogReader}.
 */
@Command(name = "audit-log", mixinStandardHelpOptions = true,
        description = "List audit records, newest first: from PostgreSQL (--postgres, or the gateway's postgres "
                + "section), else the embedded audit log in the data directory.")
final class AuditLogCommand implements Callable<Integer> {

    @CommandLine.Mixin
    DataDirOption dataDir = new DataDirOption();

    @CommandLine.Mixin
    StoreSource source = new StoreSource();

    @CommandLine.Mixin
    SinceOption since = new SinceOption();

    @Option(names = "--tool", paramLabel = "TOOL", description = "Only calls of this tool.")
    String tool;

    @Option(names = "--subject", paramLabel = "SUBJECT", description = "Only calls of this authenticated caller.")
    String subject;

    @Option(names = "--outcome", paramLabel = "OUTCOME", description = "Only OK, TOOL_ERROR, ERROR or CANCELLED.")
    String outcome;

    @Option(names = "--limit", defaultValue = "100", description = "At most this many (default: ${DEFAULT-VALUE}).")
    int limit;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AuditQuery query;
        try {
            Instant now = Instant.now();
            query = AuditQuery.since(since.start(now), limit).until(since.end(now));
            if (tool != null) {
                query = query.withTool(tool);
            }
            if (subject != null) {
                query = query.withSubject(subject);
            }
            if (outcome != null) {
                query = query.withOutcome(AuditRecord.Outcome.valueOf(outcome.toUpperCase(Locale.ROOT)));
            }
        } catch (IllegalArgumentException e) {
            err.println("warden incidents audit-log: " + SinceOption.usage() + "; --outcome one "
                    + "of " + List.of(AuditRecord.Outcome.values()) + "; --limit at least 1");
            return 2;
        }
        try (StoreSource.OpenedAudit opened = source.openAudit(dataDir)) {
            for (AuditRecord r : opened.log().list(query)) {
                out.println(line(r));
            }
            out.flush();
            return 0;
        } catch (dev.warden.gateway.config.ConfigException | java.io.UncheckedIOException e) {
            err.println("warden incidents audit-log: " + e.getMessage());
            return 2;
        }
    }

    /** One record on one line: when, how it ended (code and ref), who, what was asked of which upstream, how long. */
    static String line(AuditRecord r) {
        return Printable.line(String.format(Locale.ROOT, "%s  %-10s %-17s %-22s %-16s %-16s %-12s %s%s  %.1f ms",
                r.time().truncatedTo(ChronoUnit.MILLIS), r.outcome(), r.code().orElse("-"), r.ref().orElse("-"),
                r.client(), r.subject().orElse("-"), r.upstream().orElse("-"), r.method(),
                r.tool().map(t -> " " + t).orElse(""), r.duration().toNanos() / 1_000_000.0));
    }
}
