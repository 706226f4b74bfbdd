package dev.warden.cli;

import dev.warden.audit.Audit;
import dev.warden.audit.AuditCheck;
import dev.warden.audit.AuditContext;
import dev.warden.audit.Finding;
import dev.warden.audit.Report;
import dev.warden.audit.Target;
import dev.warden.audit.definitions.DefinitionChecks;
import dev.warden.audit.definitions.Definitions;
import dev.warden.audit.definitions.Pins;
import dev.warden.audit.http.HttpChecks;
import dev.warden.audit.report.FailOn;
import dev.warden.audit.report.ReportFormat;
import dev.warden.audit.report.Reports;
import dev.warden.audit.report.TextReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code warden audit [options] -- COMMAND [ARGS…]} or {@code warden audit --url URL}: probes an MCP
 * server from outside and reports how its errors leak and whether its tools can be trusted.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Probes an MCP server (a stdio command after --, or --url for Streamable HTTP) the way models "
                + "make servers fail, and reports what its answers leak, how its failures are shaped and whether its "
                + "tool definitions can be trusted. Tools that write, delete, send or pay are not called unless "
                + "--allow-destructive. Exit code: 0, or 1 with a finding at or above --fail-on; 2 for a usage "
                + "error; 3 when the server could not be audited: it did not initialize, or no tool of it could be "
                + "probed (grade incomplete, whatever --fail-on says)."})
final class AuditCommand implements Callable<Integer> {

    @Option(names = "--url", paramLabel = "URL", description = "Audit an HTTP server at URL: Streamable HTTP, or, when "
            + "its POST answers 404 or 405, the older HTTP+SSE transport (2024-11-05) at URL or its sibling /sse.")
    URI url;

    @Option(names = "--header", paramLabel = "NAME: VALUE",
            description = "A header sent with every HTTP request (repeatable), such as an Authorization; never shown. "
                    + "@FILE reads it from the file's first line, out of the command line. "
                    + "The same header name given twice (two API keys, two tokens) makes two callers: the audit "
                    + "asks each for the other's records by identifier (WDN-X005).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--login", paramLabel = "ACCOUNT:PASSWORD|@FILE",
            description = "Given twice: two accounts the audit logs in with through the server's login tool, each on "
                    + "a connection of its own, then asks each for the other's records by identifier (WDN-X005). "
                    + "Never shown. @FILE reads ACCOUNT:PASSWORD from the file's first line, so the password is not "
                    + "in the command line where ps shows it.")
    List<String> logins = new ArrayList<>();

    @Option(names = "--oauth",
            description = "With --url: answer the server's 401 as an MCP OAuth client (discovery, dynamic registration, "
                    + "authorization code with PKCE and the resource indicator) without a browser: for authorization "
                    + "servers that approve the client without asking a user. A token you already hold (a "
                    + "client_credentials one, say) goes in --header 'Authorization: Bearer TOKEN' instead.")
    boolean oauth;

    @Option(names = "--format", paramLabel = "FORMAT", split = ",",
            description = "text, json, sarif, markdown or html (several with commas, or repeated; default text).")
    List<String> formats = new ArrayList<>();

    @Option(names = "--out", paramLabel = "PATH",
            description = "Write the reports to PATH (a directory, or a base name; one file per format) instead of "
                    + "stdout.")
    Path out;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "high",
            description = "high, medium, low or none: exit 1 when a finding is at least this severe (default high); "
                    + "an audit that probed no tool exits 3 whatever this says.")
    String failOn;

    @Option(names = "--allow-destructive", description = "Also call tools that write, delete, send or pay.")
    boolean allowDestructive;

    @Option(names = "--dry-run", description = "List every call the audit would make, and make none.")
    boolean dryRun;

    @Option(names = "--budget", paramLabel = "N", description = "The most requests to send (default "
            + Audit.DEFAULT_BUDGET + ").")
    Integer budget;

    @Option(names = "--rate", paramLabel = "N", description = "The most requests a second (default "
            + Audit.DEFAULT_RATE + ").")
    Integer rate;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "How long each call may take (default 10s), e.g. 30s or 1500ms.")
    String timeout;

    @Option(names = "--pin", paramLabel = "FILE",
            description = "Compare every tool, resource and prompt definition with the hashes in FILE, reporting each "
                    + "that changed; when FILE does not exist, record them there.")
    Path pin;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The stdio server's command and arguments.")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() {
        if ((url == null) == command.isEmpty()) {
            System.err.println("warden audit: give a server: -- COMMAND [ARGS...] for stdio, or --url URL");
            return 2;
        }
        Set<ReportFormat> chosen;
        FailOn threshold;
        Audit.Builder audit = Audit.custom().allowDestructive(allowDestructive).dryRun(dryRun);
        try {
            chosen = formats();
            threshold = FailOn.valueOf(failOn.toUpperCase(Locale.ROOT));
            if (oauth && url == null) {
                throw new IllegalArgumentException("--oauth needs --url");
            }
            audit.target(url == null ? Target.stdio(command)
                    : oauth ? Target.http(url, headers(), dev.warden.client.auth.OAuth.builder()
                            .clientName("warden-audit")
                            .userAgent(dev.warden.audit.http.HeadlessBrowser.of(Duration.ofSeconds(10))).build())
                    : Target.http(url, headers()));
            List<dev.warden.audit.Caller> callers = callers();
            if (callers.size() == 2) {
                audit.callers(callers.get(0), callers.get(1));
            }
            if (budget != null) {
                audit.budget(budget);
            }
            if (rate != null) {
                audit.rate(rate);
            }
            if (timeout != null) {
                audit.callTimeout(dev.warden.gateway.config.GatewayConfig.duration(timeout, "--timeout"));
            }
        } catch (IllegalArgumentException | dev.warden.gateway.config.ConfigException e) {
            System.err.println("warden audit: " + e.getMessage());
            return 2;
        }
        if (chosen.size() > 1 && out == null) {
            System.err.println("warden audit: several formats need --out PATH (one file each)");
            return 2;
        }
        audit.check(DefinitionChecks.of());
        if (url != null) {
            audit.check(HttpChecks.of(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                    .followRedirects(HttpClient.Redirect.NEVER).build(), Duration.ofSeconds(10)));
        }
        if (pin != null) {
            audit.check(pins(pin));
        }
        Audit built = audit.build();
        if (dryRun) {
            built.plan().forEach(System.out::println);
            return 0;
        }
        Report report;
        try {
            report = built.run();
        } catch (RuntimeException e) {
            System.err.println("warden audit: the server could not be audited: " + e.getMessage());
            if (url != null && !oauth
                    && e.getCause() instanceof dev.warden.core.error.AuthorizationFailedException) {
                System.err.println("warden audit: give the audit credentials with --header 'Authorization: Bearer "
                        + "TOKEN' or --header 'X-API-Key: KEY'");
            }
            return FailOn.NOT_AUDITED;
        }
        try {
            if (out == null) {
                System.out.print(chosen.iterator().next().render(report));
                System.out.flush();
            } else {
                Reports.write(report, chosen, out).forEach((format, path) ->
                        System.err.println("warden audit: " + format.name().toLowerCase(Locale.ROOT) + " report at " + path));
            }
        } catch (IOException e) {
            System.err.println("warden audit: cannot write the report: " + e.getMessage());
            return 2;
        }
        System.err.println("warden audit: grade " + TextReport.shown(report.grade()) + ", "
                + report.findings().size() + " finding(s), " + report.requests() + " request(s)"
                + (report.coverage().partial() ? "; partial coverage: " + report.coverage().summary() : ""));
        return threshold.exitCode(report);
    }

    private Set<ReportFormat> formats() {
        if (formats.isEmpty()) {
            return EnumSet.of(ReportFormat.TEXT);
        }
        Set<ReportFormat> chosen = EnumSet.noneOf(ReportFormat.class);
        for (String f : formats) {
            try {
                chosen.add(ReportFormat.valueOf(f.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--format: expected text, json, sarif, markdown or html");
            }
        }
        return chosen;
    }

    /** The headers of the audit's own requests: each name's first value (a second one is the second caller's). */
    private Map<String, String> headers() {
        return headersOf(0);
    }

    /**
     * The headers of caller {@code n} (0 or 1): each name's n-th value when it is given twice, else its
     * only one. A name given three times is a usage error.
     */
    private Map<String, String> headersOf(int n) {
        Map<String, List<String[]>> byName = new LinkedHashMap<>();
        for (String given : headers) {
            String h = SecretArgument.of("--header", given);
            int colon = h.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--header: expected NAME: VALUE");
            }
            String name = h.substring(0, colon).trim();
            byName.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(new String[] {name, h.substring(colon + 1).trim()});
        }
        Map<String, String> parsed = new LinkedHashMap<>();
        for (List<String[]> values : byName.values()) {
            if (values.size() > 2) {
                throw new IllegalArgumentException("--header: a header name given more than twice (twice makes two "
                        + "callers)");
            }
            String[] chosen = values.get(Math.min(n, values.size() - 1));
            parsed.put(chosen[0], chosen[1]);
        }
        return parsed;
    }

    /** Two callers, from a header name given twice and/or two --login accounts; none otherwise. */
    private List<dev.warden.audit.Caller> callers() {
        if (!logins.isEmpty() && logins.size() != 2) {
            throw new IllegalArgumentException("--login: give it twice, one account per caller");
        }
        boolean twoHeaders = !headersOf(0).equals(headersOf(1));
        if (!twoHeaders && logins.isEmpty()) {
            return List.of();
        }
        if (twoHeaders && url == null) {
            throw new IllegalArgumentException("--header is for --url");
        }
        List<dev.warden.audit.Caller> callers = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            java.util.Optional<dev.warden.audit.Caller.Account> account = java.util.Optional.empty();
            if (!logins.isEmpty()) {
                String login = SecretArgument.of("--login", logins.get(n));
                int colon = login.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("--login: expected ACCOUNT:PASSWORD");
                }
                account = java.util.Optional.of(new dev.warden.audit.Caller.Account(login.substring(0, colon),
                        login.substring(colon + 1)));
            }
            callers.add(new dev.warden.audit.Caller(url == null ? Map.of() : headersOf(n), account));
        }
        return callers;
    }

    /** {@code --pin FILE}: compared with the file when it exists, else recorded in it. */
    private static AuditCheck pins(Path file) {
        if (Files.exists(file)) {
            return Pins.against(file);
        }
        return new AuditCheck() {
            @Override
            public List<Finding> check(AuditContext context) {
                try {
                    Pins.of(Definitions.of(context)).write(file);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the pin file " + file, e);
                }
                System.err.println("warden audit: definitions pinned in " + file);
                return List.of();
            }

            @Override
            public String name() {
                return "pins (recorded)";
            }
        };
    }
}
