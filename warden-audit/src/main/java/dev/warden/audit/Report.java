package dev.warden.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an audit found about one server: every report format is made from this alone.
 *
 * @param target    how the server was reached, in words that hold no credential ({@code stdio: npx
 *                  @modelcontextprotocol/server-everything}, {@code http: https://host/mcp})
 * @param transport the transport the audit spoke (an HTTP server on the older HTTP+SSE one is audited over it)
 * @param server    the server's {@code serverInfo} name and version, when it initialized
 * @param findings  what was found, worst first
 * @param requests  how many requests the audit sent
 * @param skipped   calls it did not make, and why ({@code "delete_file: destructive (--allow-destructive)"})
 * @param coverage  how many of the listed tools were probed, and how the listing ended
 */
public record Report(String target, TransportUsed transport, Optional<ServerInfo> server, List<Finding> findings, int requests,
                     List<String> skipped, Coverage coverage, Instant started, Duration took) {

    /** The server as it named itself. */
    public record ServerInfo(String name, String version) {
        public ServerInfo {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
        }
    }

    public Report {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(server, "server");
        findings = findings.stream().sorted(Comparator.comparing(Finding::severity)
                .thenComparing(f -> f.rule().id()).thenComparing(f -> f.tool().orElse(""))).toList();
        skipped = List.copyOf(skipped);
        Objects.requireNonNull(coverage, "coverage");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(took, "took");
    }

    /** A report of a server reached over stdio (or a target whose transport is not in question). */
    public Report(String target, Optional<ServerInfo> server, List<Finding> findings, int requests,
                  List<String> skipped, Coverage coverage, Instant started, Duration took) {
        this(target, target.startsWith("http:") ? TransportUsed.STREAMABLE_HTTP : TransportUsed.STDIO, server,
                findings, requests, skipped, coverage, started, took);
    }

    /** Scored from the findings, or incomplete when no tool could be probed (see {@link Coverage#incomplete()}). */
    public Grade grade() {
        return Grade.of(findings, coverage);
    }

    /** Whether any finding is at least {@code threshold}: the exit code of {@code --fail-on}. */
    public boolean failsAt(Severity threshold) {
        return findings.stream().anyMatch(f -> f.severity().atLeast(threshold));
    }
}
