package dev.warden.gateway.config;

import static dev.warden.gateway.config.ConfigNodes.bool;
import static dev.warden.gateway.config.ConfigNodes.integer;
import static dev.warden.gateway.config.ConfigNodes.names;
import static dev.warden.gateway.config.ConfigNodes.rate;
import static dev.warden.gateway.config.ConfigNodes.text;
import static dev.warden.gateway.config.ConfigNodes.unknownKeys;
import static dev.warden.gateway.config.Quantities.duration;

import dev.warden.auth.AuthConfig;
import dev.warden.auth.AuthConfigException;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.PresentedToken;
import dev.warden.core.segment.Retention;
import dev.warden.core.transport.StdioTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The configuration's text read into a {@link GatewayConfig}: the document's shape, then each
 * top-level section in turn (the servers themselves are {@link UpstreamReader}'s). Every mistake
 * names its key and the form expected; nothing here decides what a setting does.
 */
final class ConfigReader {

    /** The keys the document may have at its top. */
    static final Set<String> KEYS = Set.of("upstreams", "http", "namespacing", "dataDir", "mcpServers",
            "rateLimit", "audit", "metrics", "maxMessageBytes", "incidents", "limits", "auth", "access",
            "redis", "postgres");

    private ConfigReader() {
    }

    /**
     * One message-size limit for both directions: {@code maxMessageBytes} (or the override), for
     * the clients and every upstream.
     *
     * @param baseDir what relative paths in the file are relative to (its own directory)
     */
    static GatewayConfig parse(String text, Function<String, String> env, Optional<Integer> maxMessageBytes,
                               Path baseDir) {
        JsonNode root;
        try {
            root = YAMLMapper.builder().build().readTree(text);
        } catch (RuntimeException e) {
            throw new ConfigException("the configuration is not valid YAML or JSON");
        }
        if (!(root instanceof ObjectNode top)) {
            throw new ConfigException("the configuration must be a mapping with \"upstreams\" (or \"mcpServers\")");
        }
        unknownKeys(top, "", KEYS);
        boolean standard = top.has("mcpServers");
        if (standard == top.has("upstreams")) {
            throw new ConfigException("the configuration needs exactly one of \"upstreams\" (warden.yaml) and "
                    + "\"mcpServers\" (the clients' JSON)");
        }
        String key = standard ? "mcpServers" : "upstreams";
        int maxBytes = maxMessageBytes.orElseGet(() -> integer(top, "maxMessageBytes", "maxMessageBytes",
                StdioTransport.DEFAULT_MAX_MESSAGE_BYTES));
        if (maxBytes < 1024) {
            throw new ConfigException((maxMessageBytes.isPresent() ? "--max-message-bytes" : "maxMessageBytes")
                    + ": expected a number of bytes of at least 1024");
        }
        if (!(top.get(key) instanceof ObjectNode servers) || servers.isEmpty()) {
            throw new ConfigException(key + ": expected a mapping of names to servers, with at least one");
        }
        List<Upstream> upstreams = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : servers.properties()) {
            String path = key + "." + entry.getKey();
            if (!(entry.getValue() instanceof ObjectNode server)) {
                throw new ConfigException(path + ": expected a mapping with \"command\" or \"url\"");
            }
            if (server.path("disabled").asBoolean(false)) {
                continue;
            }
            upstreams.add(UpstreamReader.upstream(UpstreamReader.safeName(entry.getKey(), path), server, path, env,
                    maxBytes, baseDir));
            paths.add(path);
        }
        if (upstreams.isEmpty()) {
            throw new ConfigException(key + ": every server is disabled");
        }
        Optional<GatewayConfig.Http> http = top.has("http") ? Optional.of(http(top.get("http"), baseDir)) : Optional.empty();
        String separator = "__";
        boolean always = false;
        if (top.has("namespacing")) {
            JsonNode ns = top.get("namespacing");
            if (!(ns instanceof ObjectNode n)) {
                throw new ConfigException("namespacing: expected a mapping with \"separator\" and \"always\"");
            }
            unknownKeys(n, "namespacing.", Set.of("separator", "always"));
            separator = text(n, "separator", "namespacing.separator", "a non-empty string such as __").orElse("__");
            if (separator.isEmpty() || separator.chars().anyMatch(Character::isWhitespace)) {
                throw new ConfigException("namespacing.separator: expected a non-empty string without spaces");
            }
            always = bool(n, "always", "namespacing.always").orElse(false);
        }
        // Refused here, naming both servers as the file does (a cleaned-up name may be the other's).
        NameClash.first(upstreams.stream().map(Upstream::name).toList(), separator).ifPresent(c -> {
            throw new ConfigException(c.explain(paths::get));
        });
        Optional<Path> dataDir = text(top, "dataDir", "dataDir", "a directory path").map(Path::of);
        Optional<Limits.Rate> perClient = Optional.empty();
        if (top.has("rateLimit")) {
            if (!(top.get("rateLimit") instanceof ObjectNode r)) {
                throw new ConfigException("rateLimit: expected a mapping with \"perClient\" such as 600/m");
            }
            unknownKeys(r, "rateLimit.", Set.of("perClient"));
            perClient = text(r, "perClient", "rateLimit.perClient", "a rate such as 600/m")
                    .map(t -> rate(t, "rateLimit.perClient"));
        }
        GatewayConfig.Audit audit = new GatewayConfig.Audit(true, false);
        if (top.has("audit")) {
            if (!(top.get("audit") instanceof ObjectNode a)) {
                throw new ConfigException("audit: expected a mapping with \"enabled\" and \"failClosed\"");
            }
            unknownKeys(a, "audit.", Set.of("enabled", "failClosed", "maxSize", "maxAge"));
            audit = new GatewayConfig.Audit(bool(a, "enabled", "audit.enabled").orElse(true),
                    bool(a, "failClosed", "audit.failClosed").orElse(false), retention(a, "audit."));
        }
        Retention incidents = Retention.DEFAULT;
        if (top.has("incidents")) {
            if (!(top.get("incidents") instanceof ObjectNode i)) {
                throw new ConfigException("incidents: expected a mapping with \"maxSize\" and \"maxAge\"");
            }
            unknownKeys(i, "incidents.", Set.of("maxSize", "maxAge"));
            incidents = retention(i, "incidents.");
        }
        Optional<GatewayConfig.Metrics> metrics = Optional.empty();
        if (top.has("metrics")) {
            if (!(top.get("metrics") instanceof ObjectNode m)) {
                throw new ConfigException("metrics: expected a mapping with \"port\" (and \"host\")");
            }
            unknownKeys(m, "metrics.", Set.of("host", "port", "token"));
            JsonNode port = m.get("port");
            if (port == null || !port.canConvertToInt() || port.asInt() < 0 || port.asInt() > 65535) {
                throw new ConfigException("metrics.port: expected a port number from 0 to 65535");
            }
            Optional<PresentedToken> token = text(m, "token", "metrics.token", "a secret, such as ${METRICS_TOKEN}")
                    .map(t -> Interpolation.interpolate(t, "metrics.token", env))
                    .filter(t -> !t.isBlank()).map(PresentedToken::new);
            metrics = Optional.of(new GatewayConfig.Metrics(text(m, "host", "metrics.host", "a host name or address")
                    .orElse("127.0.0.1"), port.asInt(), token));
        }
        GatewayConfig.Parked parked = GatewayConfig.Parked.ofDefaults();
        if (top.has("limits")) {
            if (!(top.get("limits") instanceof ObjectNode l)) {
                throw new ConfigException("limits: expected a mapping with \"parkedCalls\" and \"parkedCallsPerClient\"");
            }
            unknownKeys(l, "limits.", Set.of("parkedCalls", "parkedCallsPerClient"));
            int total = integer(l, "parkedCalls", "limits.parkedCalls", parked.total());
            int each = integer(l, "parkedCallsPerClient", "limits.parkedCallsPerClient", parked.perClient());
            if (total < 1) {
                throw new ConfigException("limits.parkedCalls: expected a whole number of at least 1");
            }
            if (each < 1) {
                throw new ConfigException("limits.parkedCallsPerClient: expected a whole number of at least 1");
            }
            parked = new GatewayConfig.Parked(total, each);
        }
        Optional<Access> access = top.has("access") ? Optional.of(AccessReader.access(top.get("access")))
                : Optional.empty();
        Optional<Authenticator> auth = Optional.empty();
        if (top.has("auth")) {
            try {
                auth = Optional.of(AuthConfig.read(ConfigNodes.interpolated(top.get("auth"), "auth", env), "auth",
                        baseDir, env).build());
            } catch (AuthConfigException e) {
                throw new ConfigException(e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new ConfigException("auth: " + e.getMessage());
            }
        }
        Optional<Redis> redis = top.has("redis") ? Optional.of(RedisReader.redis(top.get("redis"), env))
                : Optional.empty();
        Optional<Postgres> postgres = top.has("postgres")
                ? Optional.of(PostgresReader.postgres(top.get("postgres"), env)) : Optional.empty();
        return new GatewayConfig(upstreams, http, separator, always, dataDir, perClient, audit, metrics, maxBytes,
                incidents, parked, access, auth, redis, postgres);
    }

    private static GatewayConfig.Http http(JsonNode node, Path baseDir) {
        if (!(node instanceof ObjectNode h)) {
            throw new ConfigException("http: expected a mapping with \"port\" (and \"host\", \"path\", \"allowedHosts\")");
        }
        unknownKeys(h, "http.", Set.of("host", "port", "path", "allowedHosts", "sessions", "allowedOrigins"));
        JsonNode port = h.get("port");
        if (port == null || !port.canConvertToInt() || port.asInt() < 0 || port.asInt() > 65535) {
            throw new ConfigException("http.port: expected a port number from 0 to 65535");
        }
        String host = text(h, "host", "http.host", "a host name or address").orElse("127.0.0.1");
        String path = text(h, "path", "http.path", "a path such as /mcp").orElse("/mcp");
        Set<String> allowed = h.has("allowedHosts") ? names(h.get("allowedHosts"), "http.allowedHosts") : Set.of();
        GatewayConfig.Http.Sessions sessions = h.has("sessions") ? sessions(h.get("sessions"), baseDir)
                : GatewayConfig.Http.Sessions.unset();
        Set<String> origins = h.has("allowedOrigins") ? origins(h.get("allowedOrigins")) : Set.of();
        return new GatewayConfig.Http(host, port.asInt(), path, allowed, sessions, origins);
    }

    /** {@code http.sessions}: the HTTP server's session bounds, each optional. */
    private static GatewayConfig.Http.Sessions sessions(JsonNode node, Path baseDir) {
        if (!(node instanceof ObjectNode s)) {
            throw new ConfigException("http.sessions: expected a mapping with \"max\", \"maxPerAddress\" and "
                    + "\"idleTimeout\"");
        }
        unknownKeys(s, "http.sessions.", Set.of("max", "maxPerAddress", "idleTimeout", "portable"));
        Optional<Integer> max = atLeastOne(s, "max", "http.sessions.max");
        Optional<Integer> perAddress = atLeastOne(s, "maxPerAddress", "http.sessions.maxPerAddress");
        Optional<Duration> idle = text(s, "idleTimeout", "http.sessions.idleTimeout", "a duration such as 10m or 90s")
                .map(t -> duration(t, "http.sessions.idleTimeout"));
        Optional<GatewayConfig.Http.Sessions.Portable> portable = s.has("portable")
                ? Optional.of(portable(s.get("portable"), baseDir)) : Optional.empty();
        return new GatewayConfig.Http.Sessions(max, perAddress, idle, portable);
    }

    /** {@code http.sessions.portable}: the key file (relative to this file's directory) and the ids' maximum age. */
    private static GatewayConfig.Http.Sessions.Portable portable(JsonNode node, Path baseDir) {
        if (!(node instanceof ObjectNode p)) {
            throw new ConfigException("http.sessions.portable: expected a mapping with \"keyFile\" (and \"maxAge\")");
        }
        unknownKeys(p, "http.sessions.portable.", Set.of("keyFile", "maxAge"));
        Path keyFile = baseDir.resolve(text(p, "keyFile", "http.sessions.portable.keyFile", "a path to a key file")
                .orElseThrow(() -> new ConfigException("http.sessions.portable.keyFile: required, a path to a file "
                        + "of session keys (one \"ID BASE64URL-SECRET\" per line)")));
        Duration maxAge = text(p, "maxAge", "http.sessions.portable.maxAge", "a duration such as 24h")
                .map(t -> duration(t, "http.sessions.portable.maxAge")).orElse(Duration.ofHours(24));
        if (maxAge.isZero() || maxAge.isNegative()) {
            throw new ConfigException("http.sessions.portable.maxAge: expected a positive duration such as 24h");
        }
        return new GatewayConfig.Http.Sessions.Portable(keyFile, maxAge);
    }

    private static Optional<Integer> atLeastOne(ObjectNode node, String key, String path) {
        if (!node.has(key)) {
            return Optional.empty();
        }
        int n = integer(node, key, path, 0);
        if (n < 1) {
            throw new ConfigException(path + ": expected a whole number of at least 1");
        }
        return Optional.of(n);
    }

    /**
     * {@code http.allowedOrigins}: browser origins ({@code scheme://host:port}) allowed besides the
     * server's own, such as an inspector on another local port.
     */
    private static Set<String> origins(JsonNode node) {
        String expected = "http.allowedOrigins: expected a list of origins such as http://localhost:6274 "
                + "(scheme://host:port, no path)";
        if (!node.isArray() || !node.valueStream().allMatch(JsonNode::isString)) {
            throw new ConfigException(expected);
        }
        Set<String> origins = new LinkedHashSet<>();
        for (JsonNode v : node) {
            String o = v.stringValue();
            boolean web = o.startsWith("http://") || o.startsWith("https://");
            String authority = web ? o.substring(o.indexOf("://") + 3) : "";
            if (authority.endsWith("/")) {
                authority = authority.substring(0, authority.length() - 1);
            }
            if (authority.isEmpty() || authority.contains("/")) {
                throw new ConfigException(expected);
            }
            origins.add(o);
        }
        return origins;
    }

    /** {@code maxSize} and {@code maxAge} of a store, each defaulting to {@link Retention#DEFAULT}'s. */
    private static Retention retention(ObjectNode node, String prefix) {
        Retention r = Retention.DEFAULT;
        Optional<Long> size = Optional.empty();
        JsonNode maxSize = node.get("maxSize");
        if (maxSize != null) {
            size = Optional.of(maxSize.isIntegralNumber() ? maxSize.asLong()
                    : Quantities.size(maxSize.isString() ? maxSize.stringValue() : "", prefix + "maxSize"));
        }
        Optional<Duration> age = text(node, "maxAge", prefix + "maxAge", "a duration such as 14d or 72h")
                .map(t -> duration(t, prefix + "maxAge"));
        try {
            return new Retention(size.orElse(r.maxBytes()), age.orElse(r.maxAge()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(prefix + "maxSize: " + e.getMessage());
        }
    }
}
