package dev.warden.gateway.config;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.PresentedToken;
import dev.warden.core.segment.Retention;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What {@code warden gateway --config FILE} reads: Warden's own {@code warden.yaml} (or the same in
 * JSON), or the {@code mcpServers} JSON that Claude Desktop, Claude Code and Cursor use, to wrap
 * every server in it. Strings may name environment variables as {@code ${NAME}} (for credentials
 * kept out of the file). Every mistake names its key and the expected form.
 *
 * <pre>{@code
 * http: { port: 8080 }                  # host 127.0.0.1, path /mcp by default
 * namespacing: { separator: "__" }
 * upstreams:
 *   everything:
 *     command: [npx, -y, "@modelcontextprotocol/server-everything"]
 *     timeout: 60s
 *     tools: { deny: [get-env] }
 *   crm:
 *     url: https://crm.example.com/mcp
 *     headers: { Authorization: "Bearer ${CRM_TOKEN}" }
 *     policy: strict
 * access:                               # who sees and uses what (CEL); absent: everything
 *   rules: ['"mcp:tools" in caller.scopes']
 * }</pre>
 *
 * @param access the authorization rules ({@link Access}); empty: everything allowed
 * @param redis the Redis that several replicas share ({@link Redis}); empty: nothing shared
 * @param postgres where incidents and audit go when replicas share them ({@link Postgres}); empty:
 *     the data directory
 */
public record GatewayConfig(List<Upstream> upstreams, Optional<Http> http, String separator, boolean prefixAlways,
        Optional<Path> dataDir, Optional<Limits.Rate> perClient, Audit audit, Optional<Metrics> metrics,
        int maxMessageBytes, Retention incidents, Parked parked, Optional<Access> access,
        Optional<Authenticator> auth, Optional<Redis> redis, Optional<Postgres> postgres) {

    /** A configuration that shares nothing with other replicas (no {@code redis:}, no {@code postgres:}). */
    public GatewayConfig(List<Upstream> upstreams, Optional<Http> http, String separator, boolean prefixAlways,
            Optional<Path> dataDir, Optional<Limits.Rate> perClient, Audit audit, Optional<Metrics> metrics,
            int maxMessageBytes, Retention incidents, Parked parked, Optional<Access> access,
            Optional<Authenticator> auth) {
        this(upstreams, http, separator, prefixAlways, dataDir, perClient, audit, metrics, maxMessageBytes,
                incidents, parked, access, auth, Optional.empty(), Optional.empty());
    }

    /** A configuration without access rules: everything allowed to every caller. */
    public GatewayConfig(List<Upstream> upstreams, Optional<Http> http, String separator, boolean prefixAlways,
            Optional<Path> dataDir, Optional<Limits.Rate> perClient, Audit audit, Optional<Metrics> metrics,
            int maxMessageBytes, Retention incidents, Parked parked) {
        this(upstreams, http, separator, prefixAlways, dataDir, perClient, audit, metrics, maxMessageBytes,
                incidents, parked, Optional.empty(), Optional.empty());
    }

    /**
     * {@code limits: { parkedCalls, parkedCallsPerClient }}: how many calls of stateless clients
     * may wait for their client's input at once, in all and per client (see {@link dev.warden.gateway.Gateway.Builder#parkedCalls}).
     */
    public record Parked(int total, int perClient) {
        public Parked {
            if (total < 1 || perClient < 1) {
                throw new IllegalArgumentException("parked calls must be at least 1");
            }
        }

        /** Calls waiting for their stateless client's input, in all, unless configured. */
        public static final int DEFAULT_TOTAL = 1000;
        /** The same, per client (by address): fewer than an upstream's default concurrency of 64. */
        public static final int DEFAULT_PER_CLIENT = 32;

        public static Parked ofDefaults() {
            return new Parked(DEFAULT_TOTAL, DEFAULT_PER_CLIENT);
        }
    }

    /**
     * The audit log: on by default, in the data directory; {@code failClosed} refuses what it (or
     * the incident store) cannot record; {@code retention} how much of it is kept.
     */
    public record Audit(boolean enabled, boolean failClosed, Retention retention) {
        public Audit {
            Objects.requireNonNull(retention, "retention");
        }

        public Audit(boolean enabled, boolean failClosed) {
            this(enabled, failClosed, Retention.DEFAULT);
        }
    }

    /**
     * Where Prometheus scrapes {@code /metrics}, and the bearer token it must present
     * ({@code metrics.token}, needed beyond loopback: the figures tell what the gateway serves).
     */
    public record Metrics(String host, int port, Optional<PresentedToken> token) {
        public Metrics {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(token, "token");
        }

        public Metrics(String host, int port) {
            this(host, port, Optional.empty());
        }
    }

    /**
     * Where the gateway listens for Streamable HTTP clients, and its bounds.
     *
     * @param sessions how many sessions it keeps and for how long (unset: the server's defaults)
     * @param allowedOrigins browser origins allowed besides the server's own (empty: none)
     */
    public record Http(String host, int port, String path, Set<String> allowedHosts, Sessions sessions,
            Set<String> allowedOrigins) {
        public Http {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(allowedHosts, "allowedHosts");
            Objects.requireNonNull(sessions, "sessions");
            Objects.requireNonNull(allowedOrigins, "allowedOrigins");
        }

        /**
         * {@code http.sessions: { max, maxPerAddress, idleTimeout, portable }}: the most sessions open at once,
         * and from one remote address, and how long one with nothing in flight stays open. Each
         * unset is the HTTP server's default (and a command-line flag wins over each).
         */
        public record Sessions(Optional<Integer> max, Optional<Integer> maxPerAddress, Optional<Duration> idleTimeout,
                               Optional<Portable> portable) {
            public Sessions {
                Objects.requireNonNull(max, "max");
                Objects.requireNonNull(maxPerAddress, "maxPerAddress");
                Objects.requireNonNull(idleTimeout, "idleTimeout");
                Objects.requireNonNull(portable, "portable");
                if (max.orElse(1) < 1 || maxPerAddress.orElse(1) < 1) {
                    throw new IllegalArgumentException("session limits must be at least 1");
                }
                if (idleTimeout.filter(d -> d.isNegative() || d.isZero()).isPresent()) {
                    throw new IllegalArgumentException("idleTimeout must be positive");
                }
            }

            /** Bounds only: sessions stay on the replica that opened them. */
            public Sessions(Optional<Integer> max, Optional<Integer> maxPerAddress, Optional<Duration> idleTimeout) {
                this(max, maxPerAddress, idleTimeout, Optional.empty());
            }

            public static Sessions unset() {
                return new Sessions(Optional.empty(), Optional.empty(), Optional.empty());
            }

            /**
             * {@code http.sessions.portable: { keyFile, maxAge }}: session ids sealed with the keys in
             * {@code keyFile} (one {@code ID BASE64URL-SECRET} per line, the first seals), so any
             * replica holding them serves any session; an id older than {@code maxAge} is refused.
             */
            public record Portable(java.nio.file.Path keyFile, Duration maxAge) {
                public Portable {
                    Objects.requireNonNull(keyFile, "keyFile");
                    if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
                        throw new IllegalArgumentException("maxAge must be positive");
                    }
                }
            }
        }
    }

    public GatewayConfig {
        upstreams = List.copyOf(upstreams);
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(postgres, "postgres");
    }

    public static GatewayConfig load(Path file) {
        return load(file, Optional.empty());
    }

    /**
     * @param maxMessageBytes the command line's {@code --max-message-bytes}, if given: it wins over
     *     the file's top-level {@code maxMessageBytes} (an upstream's own key still wins for it)
     */
    public static GatewayConfig load(Path file, Optional<Integer> maxMessageBytes) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read the configuration file " + file + ": " + e.getMessage());
        }
        return ConfigReader.parse(text, System::getenv, maxMessageBytes,
                file.toAbsolutePath().getParent());
    }

    /** YAML or JSON (JSON is YAML); {@code env} resolves {@code ${NAME}}. */
    public static GatewayConfig parse(String text, Function<String, String> env) {
        return parse(text, env, Optional.empty());
    }

    /** One message-size limit for both directions: {@code maxMessageBytes} (or the override), for the clients and every upstream. */
    public static GatewayConfig parse(String text, Function<String, String> env, Optional<Integer> maxMessageBytes) {
        return ConfigReader.parse(text, env, maxMessageBytes, Path.of("").toAbsolutePath());
    }

    /** A size: a number of bytes, or one with a unit ({@code 512KiB}, {@code 256MiB}, {@code 1GiB}; {@code KB}, {@code MB}, {@code GB} are powers of ten). */
    public static long size(String text, String path) {
        return Quantities.size(text, path);
    }

    /** {@code 60s}, {@code 5m}, {@code 1500ms}, {@code 2h}, {@code 14d} or an ISO-8601 duration. */
    public static Duration duration(String text, String path) {
        return Quantities.duration(text, path);
    }
}
