package dev.warden.gateway.config;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.transport.ProcessStartException;
import dev.warden.core.transport.ProcessTransport;
import dev.warden.core.transport.StderrSink;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One server the gateway stands in front of: its name (the only way logs and incidents name it:
 * never its command line, URL or credentials), how to reach it, and its settings.
 *
 * @param timeout how long a request to it may stay silent (progress resets it)
 * @param toolTimeouts per-tool overrides of {@code timeout}, by the upstream's own tool name
 * @param policy how its failure texts and log messages are sanitized
 * @param redactSuccessfulResults whether credentials in its successful results are redacted
 * @param allowTools if present, only these tools are visible (by the upstream's own names)
 * @param denyTools never visible; a denied tool is indistinguishable from one that does not exist
 * @param perClient one connection to it (one process, for a stdio server) per client connection, instead of
 *     one shared by all: its requests to the client (sampling, elicitation, roots) then always reach the
 *     right client, at the cost of a process per client
 * @param pii whether personal data (emails, card numbers, SSNs, phone numbers) is redacted too, in
 *     failures and in successful results (off by default)
 * @param maxMessageBytes the largest message accepted from it (the connector was made with it; a
 *     larger answer fails its request, and the refusal names this setting)
 * @param roots what a shared connection's {@code roots/list} is answered with, if configured;
 *     otherwise no roots: a client's own roots go only to a connection of its own ({@code perClient},
 *     {@code warden wrap}), never where another client could read them back
 * @param redactResultsOf per-tool overrides of {@code redactSuccessfulResults}
 * @param closeIdleAfter how long an extra shared connection (one made for clients declaring other
 *     sampling, elicitation and roots capabilities than the first; for stdio, a process) may go unused
 *     by any connected client before it is closed; the first connection stays
 * @param onBehalf how to reach it as one caller (an RFC 8693 token exchange of the caller's token),
 *     for a {@code perClient} upstream; the caller's own token never reaches it
 * @param pin its pinned definitions, if any: a definition that changed since is reported or, for a
 *     tool in {@code block} mode, hidden
 */
public record Upstream(String name, Supplier<Transport> connector, Duration timeout, Map<String, Duration> toolTimeouts,
        Policy policy, boolean redactSuccessfulResults, Optional<Set<String>> allowTools, Set<String> denyTools,
        ReconnectPolicy reconnect, Limits limits, boolean pii, boolean perClient, Duration closeIdleAfter,
        int maxMessageBytes, Optional<List<String>> roots, Map<String, Boolean> redactResultsOf,
        Optional<OnBehalf> onBehalf, Optional<Pin> pin) {

    /**
     * A connector that starts a server of its own for each connection (a stdio process): a
     * per-client upstream reached through one has that client as its only client, whereas sessions
     * on one remote server (HTTP) may share what the server keeps, its tasks say.
     */
    @FunctionalInterface
    public interface OwnServer extends Supplier<Transport> {
    }

    /**
     * A server started from a command line the user wrote ({@code warden wrap -- …}, a configured
     * upstream's {@code command}): what the user gave it there (the directories it may serve, say)
     * is no secret to its callers.
     */
    public record Launched(List<String> command, Supplier<Transport> start) implements OwnServer {
        public Launched {
            command = List.copyOf(command);
            Objects.requireNonNull(start, "start");
        }

        @Override
        public Transport get() {
            return start.get();
        }
    }

    /** The command line it is started with, when it is a subprocess ({@link Launched}); else empty. */
    public List<String> commandLine() {
        return connector instanceof Launched launched ? launched.command() : List.of();
    }

    /** Whether each connection to it is a server of its own ({@link OwnServer}). */
    public boolean serverPerConnection() {
        return connector instanceof OwnServer;
    }

    /** How to reach an upstream for one caller: a connector from that caller's current token. */
    @FunctionalInterface
    public interface OnBehalf {
        Supplier<Transport> connectorFor(Supplier<Optional<String>> callerToken);
    }

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_CLOSE_IDLE_AFTER = Duration.ofMinutes(10);

    public Upstream {
        Objects.requireNonNull(name, "name");
        if (!validName(name)) {
            throw new IllegalArgumentException("upstream name must be letters, digits, '-' or '_' (no \"__\"), got \""
                    + name + "\"");
        }
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(reconnect, "reconnect");
        Objects.requireNonNull(limits, "limits");
        requirePositive(name, "timeout", timeout);
        requirePositive(name, "closeIdleAfter", closeIdleAfter);
        toolTimeouts = Map.copyOf(toolTimeouts);
        toolTimeouts.forEach((tool, t) -> requirePositive(name, "timeout of tool " + tool, t));
        allowTools = allowTools.map(Set::copyOf);
        denyTools = Set.copyOf(denyTools);
        requireMessageSize(name, maxMessageBytes);
        roots = roots.map(List::copyOf);
        redactResultsOf = Map.copyOf(redactResultsOf);
        Objects.requireNonNull(onBehalf, "onBehalf");
        Objects.requireNonNull(pin, "pin");
        if (onBehalf.isPresent() && !perClient) {
            throw new IllegalArgumentException("upstream " + name + " acts on behalf of each caller (a token exchange) "
                    + "and so needs a connection per client (perClient)");
        }
    }

    /**
     * This upstream as one caller reaches it: with its connector for {@code callerToken} when it
     * acts on behalf of callers, else itself.
     */
    public Upstream onBehalfOf(Supplier<Optional<String>> callerToken) {
        return onBehalf.map(o -> toBuilder().connector(o.connectorFor(callerToken)).build()).orElse(this);
    }

    private static void requirePositive(String upstream, String what, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " of upstream " + upstream + " must be positive, got " + d);
        }
    }

    static boolean validName(String name) {
        if (name.isEmpty() || name.length() > 64 || name.contains("__")) {
            return false;
        }
        for (char c : name.toCharArray()) {
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /**
     * A server launched as a subprocess and spoken to over stdio; its stderr goes to the log. It
     * inherits the whole environment, as the methods taking a map do ({@code warden wrap}'s choice,
     * a drop-in); {@code warden gateway} gives each server only what its configuration names, see
     * {@link #stdio(String, List, StdioEnvironment, int)}.
     */
    public static Upstream stdio(String name, List<String> command) {
        return stdio(name, command, Map.of());
    }

    /** A subprocess with extra environment variables (credentials for it, say: never logged). */
    public static Upstream stdio(String name, List<String> command, Map<String, String> environment) {
        return stdio(name, command, environment, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
    }

    /** @param maxMessageBytes the largest message accepted from it; a larger one fails its request */
    public static Upstream stdio(String name, List<String> command, Map<String, String> environment,
            int maxMessageBytes) {
        return stdio(name, command, StdioEnvironment.everything(environment), maxMessageBytes);
    }

    /**
     * A subprocess started with {@code environment} exactly (resolved against the gateway's own
     * when it starts, and again on each restart).
     */
    public static Upstream stdio(String name, List<String> command, StdioEnvironment environment,
            int maxMessageBytes) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("upstream " + name + " needs a command");
        }
        requireMessageSize(name, maxMessageBytes);
        List<String> copy = List.copyOf(command);
        java.util.Objects.requireNonNull(environment, "environment");
        StderrSink stderr = stderrLog(name);
        return of(name, new Launched(copy, () -> {
            try {
                return ProcessTransport.launchWithExactEnvironment(copy, environment.resolve(System.getenv()),
                        Optional.empty(), stderr, maxMessageBytes);
            } catch (ProcessStartException e) {
                StderrLog.notStarted(name, e);
                throw e;
            }
        }), maxMessageBytes);
    }

    /**
     * How a stdio upstream's stderr is logged, sanitized, under its configured name: each line at
     * INFO (a healthy server's chatter stays below the default level), and, when the process ends
     * unasked (a crash, or a server that could not start), a WARNING with its exit code and last
     * lines, which usually say why.
     */
    public static StderrSink stderrLog(String name) {
        return StderrLog.of(name);
    }

    /**
     * Streamable HTTP on behalf of each caller: the caller's token exchanged (RFC 8693) for one
     * issued to this server, on a connection per client; a client without a token reaches it
     * without credentials.
     */
    public static Upstream http(String name, java.net.URI url, Map<String, String> headers,
            dev.warden.client.auth.TokenExchange exchange, int maxMessageBytes) {
        requireMessageSize(name, maxMessageBytes);
        Map<String, String> copy = Map.copyOf(headers);
        OnBehalf onBehalf = token -> () -> dev.warden.client.http.StreamableHttpTransport.of(url, copy,
                Optional.of(exchange.onBehalfOf(token)), maxMessageBytes);
        Upstream base = of(name, onBehalf.connectorFor(Optional::empty), maxMessageBytes);
        return new Upstream(name, base.connector, base.timeout, base.toolTimeouts, base.policy,
                base.redactSuccessfulResults, base.allowTools, base.denyTools, base.reconnect, base.limits, base.pii,
                true, base.closeIdleAfter, maxMessageBytes, base.roots, base.redactResultsOf, Optional.of(onBehalf),
                base.pin);
    }

    /** Streamable HTTP with headers, an optional OAuth, and the largest answer accepted. */
    public static Upstream http(String name, java.net.URI url, Map<String, String> headers,
            Optional<dev.warden.client.auth.OAuth> oauth, int maxMessageBytes) {
        requireMessageSize(name, maxMessageBytes);
        Map<String, String> copy = Map.copyOf(headers);
        return of(name, () -> dev.warden.client.http.StreamableHttpTransport.of(url, copy,
                oauth.map(o -> (dev.warden.client.http.HttpAuthorization) o), maxMessageBytes), maxMessageBytes);
    }

    private static void requireMessageSize(String name, int max) {
        if (max < 1024) {
            throw new IllegalArgumentException("maxMessageBytes of upstream " + name + " must be at least 1024, got "
                    + max);
        }
    }

    /** A server reached over Streamable HTTP, with headers sent on every request (an API key, say: never logged). */
    public static Upstream http(String name, java.net.URI url, Map<String, String> headers) {
        return of(name, McpClient.http(url, headers));
    }

    /**
     * A server reached over Streamable HTTP that requires OAuth: the gateway authorizes as the
     * client {@code oauth} describes (pre-registered, a metadata document, or registering itself),
     * and keeps the tokens across reconnects.
     */
    public static Upstream http(String name, java.net.URI url, Map<String, String> headers,
            dev.warden.client.auth.OAuth oauth) {
        Map<String, String> copy = Map.copyOf(headers);
        return of(name, () -> dev.warden.client.http.StreamableHttpTransport.of(url, copy, oauth));
    }

    public static Upstream of(String name, Supplier<Transport> connector) {
        return of(name, connector, StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
    }

    private static Upstream of(String name, Supplier<Transport> connector, int maxMessageBytes) {
        return new Upstream(name, connector, DEFAULT_TIMEOUT, Map.of(), Policy.REDACT, true, Optional.empty(),
                Set.of(), ReconnectPolicy.ofDefaults(), Limits.ofDefaults(), false, false,
                DEFAULT_CLOSE_IDLE_AFTER, maxMessageBytes, Optional.empty(), Map.of(), Optional.empty(),
                Optional.empty());
    }

    /**
     * A builder for an upstream reached through {@code connector}, with every setting at its
     * default (those of {@link #of(String, Supplier)}).
     */
    public static Builder builder(String name, Supplier<Transport> connector) {
        return of(name, connector).toBuilder();
    }

    /** A builder holding this upstream's settings, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Settings of an upstream, changed one at a time; {@link #build()} checks them all at once (the
     * record's constructor is the one place an upstream is validated). A builder is not shared
     * between threads; the upstream it builds is immutable.
     */
    public static final class Builder {
        private final String name;
        private Supplier<Transport> connector;
        private Duration timeout;
        private Map<String, Duration> toolTimeouts;
        private Policy policy;
        private boolean redactSuccessfulResults;
        private Optional<Set<String>> allowTools;
        private Set<String> denyTools;
        private ReconnectPolicy reconnect;
        private Limits limits;
        private boolean pii;
        private boolean perClient;
        private Duration closeIdleAfter;
        private final int maxMessageBytes;
        private Optional<List<String>> roots;
        private Map<String, Boolean> redactResultsOf;
        private final Optional<OnBehalf> onBehalf;
        private Optional<Pin> pin;

        private Builder(Upstream u) {
            name = u.name;
            connector = u.connector;
            timeout = u.timeout;
            toolTimeouts = u.toolTimeouts;
            policy = u.policy;
            redactSuccessfulResults = u.redactSuccessfulResults;
            allowTools = u.allowTools;
            denyTools = u.denyTools;
            reconnect = u.reconnect;
            limits = u.limits;
            pii = u.pii;
            perClient = u.perClient;
            closeIdleAfter = u.closeIdleAfter;
            maxMessageBytes = u.maxMessageBytes;
            roots = u.roots;
            redactResultsOf = u.redactResultsOf;
            onBehalf = u.onBehalf;
            pin = u.pin;
        }

        /** Its pinned definitions: changes are reported or, in block mode, changed tools hidden. */
        public Builder pin(Optional<Pin> pin) {
            this.pin = pin;
            return this;
        }

        /** The same upstream reached another way (a process started ahead of time, say). */
        public Builder connector(Supplier<Transport> connector) {
            this.connector = connector;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder toolTimeouts(Map<String, Duration> timeouts) {
            this.toolTimeouts = timeouts;
            return this;
        }

        public Builder policy(Policy policy) {
            this.policy = policy;
            return this;
        }

        public Builder redactSuccessfulResults(boolean redact) {
            this.redactSuccessfulResults = redact;
            return this;
        }

        /** Per-tool exceptions to {@link Upstream#redactSuccessfulResults()}, by the upstream's own tool names. */
        public Builder redactResultsOf(Map<String, Boolean> byTool) {
            this.redactResultsOf = byTool;
            return this;
        }

        public Builder tools(Optional<Set<String>> allow, Set<String> deny) {
            this.allowTools = allow;
            this.denyTools = deny;
            return this;
        }

        public Builder limits(Limits limits) {
            this.limits = limits;
            return this;
        }

        public Builder pii(boolean pii) {
            this.pii = pii;
            return this;
        }

        public Builder perClient(boolean perClient) {
            this.perClient = perClient;
            return this;
        }

        public Builder closeIdleAfter(Duration closeIdleAfter) {
            this.closeIdleAfter = closeIdleAfter;
            return this;
        }

        public Builder reconnect(ReconnectPolicy reconnect) {
            this.reconnect = reconnect;
            return this;
        }

        /**
         * The roots a shared connection's {@code roots/list} is answered with, instead of the
         * intersection of its connected clients' roots (file URIs or absolute paths).
         */
        public Builder roots(Optional<List<String>> roots) {
            this.roots = roots;
            return this;
        }

        /** The upstream, validated: an {@link IllegalArgumentException} names the setting that is wrong. */
        public Upstream build() {
            return new Upstream(name, connector, timeout, toolTimeouts, policy, redactSuccessfulResults, allowTools,
                    denyTools, reconnect, limits, pii, perClient, closeIdleAfter, maxMessageBytes, roots,
                    redactResultsOf, onBehalf, pin);
        }
    }

    /** Whether credentials in this tool's successful results are redacted (a per-tool setting, else the upstream's). */
    public boolean redactsResultsOf(String tool) {
        return redactResultsOf.getOrDefault(tool, redactSuccessfulResults);
    }

    /** Whether a tool of this upstream (its own name) may be seen and called. */
    public boolean exposes(String tool) {
        return !denyTools.contains(tool) && allowTools.map(a -> a.contains(tool)).orElse(true);
    }

    /** The silence allowed for one tool's calls. */
    public Duration timeoutFor(String tool) {
        return toolTimeouts.getOrDefault(tool, timeout);
    }
}
