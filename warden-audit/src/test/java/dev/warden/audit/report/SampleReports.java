package dev.warden.audit.report;

import dev.warden.audit.Coverage;
import dev.warden.audit.Evidence;
import dev.warden.audit.Finding;
import dev.warden.audit.Report;
import dev.warden.audit.Rule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reports to render in the tests: every rule found, none found, and hostile names from the server. */
final class SampleReports {

    /** A value the server leaked; it must appear in no report. */
    static final String CANARY = "AKIAWARDENCANARY7Q3Z";
    static final String LEAKED = "aws_access_key_id=" + CANARY + " at /srv/app/secrets.env";
    static final String SCRIPT_TOOL = "<script>alert(1)</script>";
    static final Instant STARTED = Instant.parse("2026-11-24T12:00:00Z");

    private SampleReports() {
    }

    /** One finding of each rule, each on a tool of its own (some server-wide), evidence from a leaked value. */
    static Report everyRule() {
        List<Finding> findings = new ArrayList<>();
        for (Rule rule : Rule.values()) {
            Optional<String> tool = rule.id().startsWith("WDN-H") ? Optional.empty()
                    : Optional.of(rule.name().toLowerCase(java.util.Locale.ROOT));
            findings.add(new Finding(rule, tool, "required property 'path' missing", "/result/content/0/text",
                    "the answer holds a " + rule.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
                    Optional.of(Evidence.of("secret", LEAKED + rule.id()))));
        }
        return report(findings);
    }

    /** What an audit of a leaky file and database server might find: the screenshot in docs/guides/audit-a-server.md. */
    static Report realistic() {
        List<Finding> findings = List.of(
                finding(Rule.LEAK_STACK_TRACE, "read_file", "required property 'path' missing", "/result/content/0/text",
                        "the isError text holds a Node.js stack trace (12 frames)", "stack-trace"),
                finding(Rule.LEAK_SECRET, "query", "SQL metacharacters in 'sql'", "/error/data/connection",
                        "error.data holds a PostgreSQL connection string with a password", "credential"),
                finding(Rule.TOOL_POISONING, "send_report", "definition", "definition:/tools/4/description",
                        "the description tells the model to read ~/.ssh and pass it as 'notes'", null),
                finding(Rule.LEAK_DATABASE, "query", "wrong type for 'limit'", "/result/content/0/text",
                        "the failure quotes the SQL statement and a constraint name", "sql"),
                finding(Rule.LEAK_PATH, "read_file", "path traversal in 'path'", "/result/content/0/text",
                        "the failure shows an absolute server path", "path"),
                finding(Rule.TOOL_ERROR_AS_PROTOCOL_ERROR, "query", "wrong type for 'limit'", "/error",
                        "a bad argument came back as JSON-RPC error -32603", null),
                finding(Rule.USER_ENUMERATION, "login", "unknown account vs wrong password", "/result/content/0/text",
                        "the two answers differ in text", null),
                finding(Rule.NO_MACHINE_CODE, "read_file", "required property 'path' missing", "/result",
                        "the failure has no code and no retry hint", null),
                finding(Rule.REFLECTED_INPUT, "search", "marker in 'q'", "/result/content/0/text",
                        "the unique marker sent in 'q' came back verbatim", null),
                finding(Rule.DESTRUCTIVE_WITHOUT_ANNOTATION, "delete_file", "definition", "definition:/tools/2/annotations",
                        "a tool named delete_file declares no destructiveHint", null),
                finding(Rule.HTTP_VERSION_BANNER, null, "initialize", "header:Server",
                        "the Server header names the product and its version", "banner"));
        return new Report("http: https://mcp.internal.example/mcp", Optional.of(new Report.ServerInfo("files-and-db", "0.9.2")),
                findings, 318, List.of("delete_file: destructive (--allow-destructive)"), Coverage.complete(5), STARTED, Duration.ofMillis(8734));
    }

    private static Finding finding(Rule rule, String tool, String probe, String location, String message, String category) {
        return new Finding(rule, Optional.ofNullable(tool), probe, location, message,
                Optional.ofNullable(category).map(c -> Evidence.of(c, LEAKED + location + tool)));
    }

    static Report empty() {
        return report(List.of());
    }

    /** A tool and a server whose names are markup, terminal escapes and table syntax. */
    static Report hostile() {
        Finding script = new Finding(Rule.LEAK_STACK_TRACE, Optional.of(SCRIPT_TOOL), "wrong type for 'q'",
                "/error/data/detail", "the failure shows a Java stack trace", Optional.of(Evidence.of("stack-trace", LEAKED)));
        Finding image = new Finding(Rule.REFLECTED_INPUT,
                Optional.of("<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"),
                "marker in 'q'", "/result/content/0/text", "the marker came back", Optional.empty());
        Finding terminal = new Finding(Rule.HIDDEN_UNICODE, Optional.of("ls\u001b[2J\u202Etxt.exe | `x` @octocat"),
                "definition", "definition:/tools/3/name", "the name holds a bidi override", Optional.empty());
        return new Report("stdio: node leaky.js", Optional.of(new Report.ServerInfo("<b>leaky</b>", "1.0\u001b[31m")),
                List.of(script, image, terminal), 12, List.of("<i>delete_all</i>: destructive (--allow-destructive)"),
                Coverage.complete(3), STARTED, Duration.ofMillis(3456));
    }

    /** A server that paged for ever: the loop found, no tool probed, so no grade. */
    static Report incomplete() {
        Finding loop = new Finding(Rule.PAGINATION_LOOP, Optional.empty(), "tools/list", "/result/nextCursor",
                "The listing never ends: 3 pages in a row were empty yet each gave a next cursor", Optional.empty());
        return new Report("stdio: node listing-server.mjs --pages-forever",
                Optional.of(new Report.ServerInfo("listing", "1.0.0")), List.of(loop), 9, List.of(),
                new Coverage(0, 0, new Coverage.Listing.Unfinished("a pagination loop"), List.of()), STARTED,
                Duration.ofMillis(120));
    }

    static Report report(List<Finding> findings) {
        return new Report("stdio: npx @modelcontextprotocol/server-everything",
                Optional.of(new Report.ServerInfo("example-servers/everything", "1.0.0")), findings, 240,
                List.of("delete_file: destructive (--allow-destructive)"), Coverage.complete(5), STARTED, Duration.ofMillis(4321));
    }
}
