package dev.warden.cli;

import dev.warden.console.Console;
import dev.warden.console.feed.ConsoleFeed;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.auditlog.AuditLogReader;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.view.UpstreamState;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --console HOST:PORT}: the operator's read-only web console (warden-console) on a port of
 * its own, fed by a tee of the gateway's audit records; behind the gateway's auth, with
 * {@code --console-scope} besides, when the gateway has auth.
 */
final class ConsoleOptions {

    @Option(names = "--console", paramLabel = "HOST:PORT", converter = AddressConverter.class,
            description = "Serve the operator's read-only web console there, e.g. 127.0.0.1:0 (0 picks a port; its "
                    + "URL goes to stderr). A host that is not loopback needs the gateway's auth and http.allowedHosts.")
    Address address;

    @Option(names = "--console-scope", paramLabel = "SCOPE",
            description = "The scope a caller's token or API key needs to read the console when the gateway has auth "
                    + "(default: " + Console.DEFAULT_ADMIN_SCOPE + ").")
    String scope = Console.DEFAULT_ADMIN_SCOPE;

    @Option(names = "--console-client-id", paramLabel = "ID",
            description = "Browsers sign in to the console at the gateway's OAuth issuer (auth.issuers, the first) as "
                    + "this client: authorization code with PKCE, redirect URI <console URL>/login/callback. A "
                    + "confidential client's secret is read from the environment variable "
                    + "WARDEN_CONSOLE_CLIENT_SECRET.")
    String clientId;

    @Option(names = "--console-url", paramLabel = "URL",
            description = "The URL operators open the console by, when it is not the address it listens on (behind a "
                    + "TLS proxy: https makes the session cookie Secure). Scheme and host[:port] only, no path: the "
                    + "redirect URI is <URL>/login/callback. Default: the loopback address it listens on, over http "
                    + "(never a request's Host); required for browser sign-in on a host that is not loopback.")
    URI url;

    /** The environment variable a confidential console client's secret is read from (never an argument: ps shows those). */
    static final String SECRET_ENV = "WARDEN_CONSOLE_CLIENT_SECRET";

    /** Where the console listens. */
    record Address(String host, int port) {
    }

    /** {@code HOST:PORT} or {@code [v6]:PORT}. */
    static final class AddressConverter implements CommandLine.ITypeConverter<Address> {
        @Override
        public Address convert(String text) {
            int colon = text.lastIndexOf(':');
            if (colon > 0 && colon < text.length() - 1) {
                String host = text.substring(0, colon);
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                try {
                    int port = Integer.parseInt(text.substring(colon + 1));
                    if (port >= 0 && port <= 65535 && !host.isEmpty()) {
                        return new Address(host, port);
                    }
                } catch (NumberFormatException e) {
                    // the one message below
                }
            }
            throw new CommandLine.TypeConversionException("expected HOST:PORT such as 127.0.0.1:0, got \"" + text
                    + "\"");
        }
    }

    /** What the console is fed; teed into only when it is on. */
    private final ConsoleFeed feed = ConsoleFeed.of(Clock.systemUTC());

    /** The gateway's audit sink, teed into the console's feed when the console is on. */
    AuditSink audit(AuditSink configured) {
        return address == null ? configured : feed.tee(configured);
    }

    /** What keeps the console from starting with these settings, said before any upstream starts. */
    Optional<String> problem(Optional<Authenticator> auth, Set<String> allowedHosts, boolean insecureNoAuth) {
        if (address == null) {
            return Optional.empty();
        }
        try {
            builder(auth, allowedHosts, insecureNoAuth, () -> List.of(), new AtomicReference<>()).build();
            return Optional.empty();
        } catch (IllegalStateException | IllegalArgumentException e) {
            return Optional.of("--console: " + e.getMessage());
        }
    }

    /**
     * Starts the console when {@code --console} was given; else nothing.
     *
     * @param auditLog the audit store the gateway writes to, read back for the audit tail (none when
     *     audit is off: the tail is then this process's records)
     * @param endpoint the MCP endpoint once it is bound: the resource the gateway's tokens are for,
     *     unless the auth section names one
     */
    AutoCloseable start(Gateway gateway, IncidentStore incidents, Optional<AuditLogReader> auditLog,
                        Optional<Authenticator> auth,
                        AtomicReference<URI> endpoint, Set<String> allowedHosts, boolean insecureNoAuth)
            throws IOException {
        if (address == null) {
            return () -> { };
        }
        Console.Builder console = builder(auth, allowedHosts, insecureNoAuth, gateway::upstreamStates, endpoint)
                .incidents(incidents);
        auditLog.ifPresent(console::auditLog);
        Console running = console.start();
        System.err.println("warden gateway: console at " + running.uri());
        return running;
    }

    private Console.Builder builder(Optional<Authenticator> auth, Set<String> allowedHosts, boolean insecureNoAuth,
                                    Supplier<List<UpstreamState>> upstreams, AtomicReference<URI> endpoint) {
        Console.Builder console = Console.builder().address(address.host(), address.port()).allowedHosts(allowedHosts)
                .upstreams(upstreams).feed(feed);
        auth.ifPresent(a -> console.auth(a, () -> a.resource().orElseGet(() -> Optional.ofNullable(endpoint.get())
                // before the MCP endpoint is bound no token can be for it: refused
                .orElse(URI.create("http://unbound.invalid/"))), scope));
        if (insecureNoAuth) {
            console.insecureNoAuth();
        }
        if (clientId != null) {
            console.signIn(clientId, Optional.ofNullable(System.getenv(SECRET_ENV)), Optional.ofNullable(url));
        } else if (url != null) {
            throw new IllegalArgumentException("--console-url is where browsers come back after signing in: it needs "
                    + "--console-client-id");
        }
        return console;
    }
}
