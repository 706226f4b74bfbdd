package dev.warden.gateway;

import dev.warden.core.incident.Retention;
import dev.warden.core.sanitize.Policy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

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
 * }</pre>
 */
public record GatewayConfig(List<Upstream> upstreams, Optional<Http> http, String separator, boolean prefixAlways,
        Optional<Path> dataDir, Optional<Limits.Rate> perClient, Audit audit, Optional<Metrics> metrics,
        int maxMessageBytes, Retention incidents, Parked parked) {

    /**
     * {@code limits: { parkedCalls, parkedCallsPerClient }}: how many calls of stateless clients
     * may wait for their client's input at once, in all and per client (see {@link Gateway.Builder#parkedCalls}).
     */
    public record Parked(int total, int perClient) {
        public Parked {
            if (total < 1 || perClient < 1) {
                throw new IllegalArgumentException("parked calls must be at least 1");
            }
        }

        public static Parked ofDefaults() {
            return new Parked(Gateway.DEFAULT_PARKED_CALLS, Gateway.DEFAULT_PARKED_CALLS_PER_CLIENT);
        }
    }

    /**
     * The audit log: on by default, in the data directory; {@code failClosed} refuses what it (or
     * the incident store) cannot record; {@code retention} how much of it is kept.
     */
    public record Audit(boolean enabled, boolean failClosed, Retention retention) {
        public Audit {
            java.util.Objects.requireNonNull(retention, "retention");
        }

        public Audit(boolean enabled, boolean failClosed) {
            this(enabled, failClosed, Retention.DEFAULT);
        }
    }

    /** Where Prometheus scrapes {@code /metrics}. */
    public record Metrics(String host, int port) {
    }

    /** Where the gateway listens for Streamable HTTP clients. */
    public record Http(String host, int port, String path, Set<String> allowedHosts) {
    }

    private static final Set<String> TOP = Set.of("upstreams", "http", "namespacing", "dataDir", "mcpServers",
            "rateLimit", "audit", "metrics", "maxMessageBytes", "incidents", "limits");
    private static final Set<String> UPSTREAM = Set.of("command", "args", "env", "url", "headers", "timeout",
            "toolTimeouts", "policy", "redactCredentialsInResults", "tools", "type", "cwd", "disabled", "breaker",
            "maxConcurrent", "rateLimit", "pii", "oauth", "maxMessageBytes", "perClient",
            "closeIdleAfter", "roots", "inheritEnv", "maxConnections");

    public GatewayConfig {
        upstreams = List.copyOf(upstreams);
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
        return parse(text, System::getenv, maxMessageBytes);
    }

    /** YAML or JSON (JSON is YAML); {@code env} resolves {@code ${NAME}}. */
    public static GatewayConfig parse(String text, Function<String, String> env) {
        return parse(text, env, Optional.empty());
    }

    /** One message-size limit for both directions: {@code maxMessageBytes} (or the override), for the clients and every upstream. */
    public static GatewayConfig parse(String text, Function<String, String> env, Optional<Integer> maxMessageBytes) {
        JsonNode root;
        try {
            root = YAMLMapper.builder().build().readTree(text);
        } catch (RuntimeException e) {
            throw new ConfigException("the configuration is not valid YAML or JSON");
        }
        if (!(root instanceof ObjectNode top)) {
            throw new ConfigException("the configuration must be a mapping with \"upstreams\" (or \"mcpServers\")");
        }
        unknownKeys(top, "", TOP);
        boolean standard = top.has("mcpServers");
        if (standard == top.has("upstreams")) {
            throw new ConfigException("the configuration needs exactly one of \"upstreams\" (warden.yaml) and "
                    + "\"mcpServers\" (the clients' JSON)");
        }
        String key = standard ? "mcpServers" : "upstreams";
        int maxBytes = maxMessageBytes.orElseGet(() -> integer(top, "maxMessageBytes", "maxMessageBytes",
                dev.warden.core.transport.StdioTransport.DEFAULT_MAX_MESSAGE_BYTES));
        if (maxBytes < 1024) {
            throw new ConfigException((maxMessageBytes.isPresent() ? "--max-message-bytes" : "maxMessageBytes")
                    + ": expected a number of bytes of at least 1024");
        }
        if (!(top.get(key) instanceof ObjectNode servers) || servers.isEmpty()) {
            throw new ConfigException(key + ": expected a mapping of names to servers, with at least one");
        }
        List<Upstream> upstreams = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : servers.properties()) {
            String path = key + "." + entry.getKey();
            if (!(entry.getValue() instanceof ObjectNode server)) {
                throw new ConfigException(path + ": expected a mapping with \"command\" or \"url\"");
            }
            if (server.path("disabled").asBoolean(false)) {
                continue;
            }
            upstreams.add(upstream(safeName(entry.getKey(), path), server, path, env, maxBytes));
        }
        if (upstreams.isEmpty()) {
            throw new ConfigException(key + ": every server is disabled");
        }
        Optional<Http> http = top.has("http") ? Optional.of(http(top.get("http"))) : Optional.empty();
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
        Audit audit = new Audit(true, false);
        if (top.has("audit")) {
            if (!(top.get("audit") instanceof ObjectNode a)) {
                throw new ConfigException("audit: expected a mapping with \"enabled\" and \"failClosed\"");
            }
            unknownKeys(a, "audit.", Set.of("enabled", "failClosed", "maxSize", "maxAge"));
            audit = new Audit(bool(a, "enabled", "audit.enabled").orElse(true),
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
        Optional<Metrics> metrics = Optional.empty();
        if (top.has("metrics")) {
            if (!(top.get("metrics") instanceof ObjectNode m)) {
                throw new ConfigException("metrics: expected a mapping with \"port\" (and \"host\")");
            }
            unknownKeys(m, "metrics.", Set.of("host", "port"));
            JsonNode port = m.get("port");
            if (port == null || !port.canConvertToInt() || port.asInt() < 0 || port.asInt() > 65535) {
                throw new ConfigException("metrics.port: expected a port number from 0 to 65535");
            }
            metrics = Optional.of(new Metrics(text(m, "host", "metrics.host", "a host name or address")
                    .orElse("127.0.0.1"), port.asInt()));
        }
        Parked parked = Parked.ofDefaults();
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
            parked = new Parked(total, each);
        }
        return new GatewayConfig(upstreams, http, separator, always, dataDir, perClient, audit, metrics, maxBytes,
                incidents, parked);
    }

    /** A server name from the file as an upstream name: kept when valid, else its letters and digits. */
    private static String safeName(String name, String path) {
        if (Upstream.validName(name)) {
            return name;
        }
        StringBuilder b = new StringBuilder();
        for (char c : name.toCharArray()) {
            b.append(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' ? c : '-');
        }
        String cleaned = b.toString();
        while (cleaned.contains("--")) {
            cleaned = cleaned.replace("--", "-");
        }
        if (!Upstream.validName(cleaned)) {
            throw new ConfigException(path + ": the name must have letters or digits (up to 64)");
        }
        return cleaned;
    }

    private static Upstream upstream(String name, ObjectNode s, String path, Function<String, String> env,
            int defaultMaxBytes) {
        unknownKeys(s, path + ".", UPSTREAM);
        boolean stdio = s.has("command");
        int maxBytes = integer(s, "maxMessageBytes", path + ".maxMessageBytes", defaultMaxBytes);
        if (maxBytes < 1024) {
            throw new ConfigException(path + ".maxMessageBytes: expected a number of bytes of at least 1024");
        }
        if (stdio == s.has("url")) {
            throw new ConfigException(path + ": expected exactly one of \"command\" (a stdio server) and \"url\" "
                    + "(a Streamable HTTP server)");
        }
        Upstream u;
        if (stdio) {
            List<String> command = new ArrayList<>();
            JsonNode c = s.get("command");
            if (c.isString() && !c.stringValue().isBlank()) {
                command.add(c.stringValue());
            } else if (c.isArray() && !c.isEmpty() && c.valueStream().allMatch(JsonNode::isString)) {
                c.valueStream().map(JsonNode::stringValue).forEach(command::add);
            } else {
                throw new ConfigException(path + ".command: expected a program name or a list of strings");
            }
            if (s.has("args")) {
                JsonNode a = s.get("args");
                if (!a.isArray() || !a.valueStream().allMatch(JsonNode::isString)) {
                    throw new ConfigException(path + ".args: expected a list of strings");
                }
                a.valueStream().map(JsonNode::stringValue).forEach(command::add);
            }
            Set<String> inherit = s.has("inheritEnv") ? names(s.get("inheritEnv"), path + ".inheritEnv") : Set.of();
            for (String variable : inherit) {
                if (!StdioEnvironment.validName(variable)) {
                    throw new ConfigException(path + ".inheritEnv: expected names of environment variables (letters, "
                            + "digits and _)");
                }
            }
            // Only what is named here reaches the process (and a minimal base): see StdioEnvironment.
            u = Upstream.stdio(name, command, StdioEnvironment.minimal(strings(s, "env", path + ".env", env), inherit),
                    maxBytes);
        } else {
            String url = text(s, "url", path + ".url", "an http or https URL").orElseThrow();
            URI uri;
            try {
                uri = URI.create(interpolate(url, path + ".url", env));
            } catch (IllegalArgumentException | ConfigException e) {
                throw new ConfigException(path + ".url: expected an http or https URL");
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new ConfigException(path + ".url: expected an http or https URL");
            }
            Map<String, String> headers = strings(s, "headers", path + ".headers", env);
            u = Upstream.http(name, uri, headers, s.has("oauth") ? Optional.of(oauth(s.get("oauth"), path + ".oauth",
                    env)) : Optional.empty(), maxBytes);
        }
        Optional<Duration> timeout = text(s, "timeout", path + ".timeout", "a duration such as 60s, 5m or 1500ms")
                .map(t -> duration(t, path + ".timeout"));
        if (timeout.isPresent()) {
            u = u.withTimeout(timeout.get());
        }
        if (s.has("toolTimeouts")) {
            Map<String, Duration> perTool = new LinkedHashMap<>();
            if (!(s.get("toolTimeouts") instanceof ObjectNode tt)) {
                throw new ConfigException(path + ".toolTimeouts: expected a mapping of tool names to durations");
            }
            for (Map.Entry<String, JsonNode> e : tt.properties()) {
                String p = path + ".toolTimeouts." + e.getKey();
                if (!e.getValue().isString()) {
                    throw new ConfigException(p + ": expected a duration such as 60s, 5m or 1500ms");
                }
                perTool.put(e.getKey(), duration(e.getValue().stringValue(), p));
            }
            u = u.withToolTimeouts(perTool);
        }
        Optional<String> policy = text(s, "policy", path + ".policy", "redact, strict or passthrough");
        if (policy.isPresent()) {
            try {
                u = u.withPolicy(Policy.parse(policy.get()));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(path + ".policy: expected redact, strict or passthrough");
            }
        }
        Optional<Boolean> perClient = bool(s, "perClient", path + ".perClient");
        if (perClient.isPresent()) {
            u = u.withPerClient(perClient.get());
        }
        Optional<Duration> idle = text(s, "closeIdleAfter", path + ".closeIdleAfter",
                "a duration such as 10m or 90s").map(t -> duration(t, path + ".closeIdleAfter"));
        if (idle.isPresent()) {
            u = u.withCloseIdleAfter(idle.get());
        }
        Optional<Boolean> pii = bool(s, "pii", path + ".pii");
        if (pii.isPresent()) {
            u = u.withPii(pii.get());
        }
        u = redaction(s, path, u);
        if (s.has("roots")) {
            JsonNode r = s.get("roots");
            if (!r.isArray() || !r.valueStream().allMatch(v -> v.isString() && rootUri(v.stringValue()).isPresent())) {
                throw new ConfigException(path + ".roots: expected a list of absolute paths or file:// URIs");
            }
            u = u.withRoots(Optional.of(r.valueStream().map(v -> rootUri(v.stringValue()).orElseThrow()).toList()));
        }
        u = u.withLimits(limits(s, path, u.limits()));
        if (s.has("tools")) {
            if (!(s.get("tools") instanceof ObjectNode t)) {
                throw new ConfigException(path + ".tools: expected a mapping with \"allow\" and/or \"deny\" lists");
            }
            unknownKeys(t, path + ".tools.", Set.of("allow", "deny"));
            Optional<Set<String>> allow = t.has("allow") ? Optional.of(names(t.get("allow"), path + ".tools.allow"))
                    : Optional.empty();
            Set<String> deny = t.has("deny") ? names(t.get("deny"), path + ".tools.deny") : Set.of();
            u = u.withTools(allow, deny);
        }
        return u;
    }

    /**
     * {@code oauth: { clientId, clientSecret, clientName, redirectUri, clientMetadataUrl }}, all
     * optional: with none, the gateway registers itself where the server allows it. The browser
     * step is headless: for authorization servers that approve this client without a user.
     */
    private static dev.warden.client.auth.OAuth oauth(JsonNode node, String path, Function<String, String> env) {
        if (!(node instanceof ObjectNode o)) {
            throw new ConfigException(path + ": expected a mapping (clientId, clientSecret, clientName, redirectUri, "
                    + "clientMetadataUrl), or {} to register dynamically");
        }
        unknownKeys(o, path + ".", Set.of("clientId", "clientSecret", "clientName", "redirectUri",
                "clientMetadataUrl"));
        dev.warden.client.auth.OAuth.Builder b = dev.warden.client.auth.OAuth.builder();
        try {
            text(o, "clientName", path + ".clientName", "a name").ifPresent(b::clientName);
            text(o, "redirectUri", path + ".redirectUri", "an absolute URI").map(URI::create).ifPresent(b::redirectUri);
            text(o, "clientMetadataUrl", path + ".clientMetadataUrl", "an https URL").map(URI::create)
                    .ifPresent(b::clientMetadataUrl);
        } catch (IllegalArgumentException | ConfigException e) {
            String message = e.getMessage();
            int got = message.indexOf(", got ");
            throw new ConfigException(path + ": " + (got < 0 ? message : message.substring(0, got)));
        }
        Optional<String> id = text(o, "clientId", path + ".clientId", "a client id")
                .map(v -> interpolate(v, path + ".clientId", env));
        Optional<String> secret = text(o, "clientSecret", path + ".clientSecret", "a secret")
                .map(v -> interpolate(v, path + ".clientSecret", env));
        if (secret.isPresent() && id.isEmpty()) {
            throw new ConfigException(path + ".clientSecret: needs clientId beside it");
        }
        id.ifPresent(i -> {
            if (secret.isPresent()) {
                b.client(i, secret.get());
            } else {
                b.client(i);
            }
        });
        return b.build();
    }

    /**
     * {@code redactCredentialsInResults: true|false}, or {@code {default: true, tools: {read_file:
     * false}}} for tools that read and write files (a redacted value written back is the marker).
     */
    private static Upstream redaction(ObjectNode s, String path, Upstream u) {
        String key = path + ".redactCredentialsInResults";
        JsonNode r = s.get("redactCredentialsInResults");
        if (r == null || r.isNull()) {
            return u;
        }
        if (r.isBoolean()) {
            return u.withRedactSuccessfulResults(r.booleanValue());
        }
        if (!(r instanceof ObjectNode o)) {
            throw new ConfigException(key + ": expected true, false, or a mapping with \"default\" and \"tools\"");
        }
        unknownKeys(o, key + ".", Set.of("default", "tools"));
        Upstream out = u;
        Optional<Boolean> all = bool(o, "default", key + ".default");
        if (all.isPresent()) {
            out = out.withRedactSuccessfulResults(all.get());
        }
        if (o.has("tools")) {
            if (!(o.get("tools") instanceof ObjectNode t)) {
                throw new ConfigException(key + ".tools: expected a mapping of tool names to true or false");
            }
            Map<String, Boolean> byTool = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : t.properties()) {
                if (!e.getValue().isBoolean()) {
                    throw new ConfigException(key + ".tools." + e.getKey() + ": expected true or false");
                }
                byTool.put(e.getKey(), e.getValue().booleanValue());
            }
            out = out.withRedactResultsOf(byTool);
        }
        return out;
    }

    /** An absolute path or a {@code file://} URI, as the {@code file://} URI a root is. */
    static Optional<String> rootUri(String text) {
        try {
            if (text.startsWith("file://")) {
                URI uri = URI.create(text);
                return uri.getPath() != null && uri.getPath().startsWith("/") ? Optional.of(uri.toString())
                        : Optional.empty();
            }
            Path p = Path.of(text);
            return p.isAbsolute() ? Optional.of(p.normalize().toUri().toString()) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Limits limits(ObjectNode s, String path, Limits limits) {
        Limits out = limits;
        if (s.has("breaker")) {
            if (!(s.get("breaker") instanceof ObjectNode b)) {
                throw new ConfigException(path + ".breaker: expected a mapping with failureRate, minimumCalls, window "
                        + "and openFor");
            }
            unknownKeys(b, path + ".breaker.", Set.of("failureRate", "minimumCalls", "window", "openFor"));
            Limits.Breaker d = limits.breaker();
            int rate = integer(b, "failureRate", path + ".breaker.failureRate", d.failureRatePercent());
            int minimum = integer(b, "minimumCalls", path + ".breaker.minimumCalls", d.minimumCalls());
            int window = integer(b, "window", path + ".breaker.window", Math.max(d.window(), minimum));
            Duration openFor = text(b, "openFor", path + ".breaker.openFor", "a duration such as 30s")
                    .map(t -> duration(t, path + ".breaker.openFor")).orElse(d.openFor());
            try {
                out = out.withBreaker(new Limits.Breaker(rate, minimum, window, openFor));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(path + ".breaker: " + e.getMessage());
            }
        }
        if (s.has("maxConcurrent")) {
            int max = integer(s, "maxConcurrent", path + ".maxConcurrent", 0);
            if (max < 1) {
                throw new ConfigException(path + ".maxConcurrent: expected a whole number of at least 1");
            }
            out = out.withMaxConcurrent(max);
        }
        if (s.has("maxConnections")) {
            int max = integer(s, "maxConnections", path + ".maxConnections", 0);
            if (max < 1) {
                throw new ConfigException(path + ".maxConnections: expected a whole number of at least 1");
            }
            out = out.withMaxConnections(max);
        }
        Optional<String> perTool = text(s, "rateLimit", path + ".rateLimit", "a rate per tool such as 60/m");
        if (perTool.isPresent()) {
            out = out.withPerTool(Optional.of(rate(perTool.get(), path + ".rateLimit")));
        }
        return out;
    }

    private static int integer(ObjectNode node, String key, String path, int otherwise) {
        JsonNode v = node.get(key);
        if (v == null) {
            return otherwise;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ConfigException(path + ": expected a whole number");
        }
        return v.asInt();
    }

    private static Limits.Rate rate(String text, String path) {
        try {
            return Limits.Rate.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path + ": expected a rate such as 60/m, 10/s or 1000/h");
        }
    }

    private static Http http(JsonNode node) {
        if (!(node instanceof ObjectNode h)) {
            throw new ConfigException("http: expected a mapping with \"port\" (and \"host\", \"path\", \"allowedHosts\")");
        }
        unknownKeys(h, "http.", Set.of("host", "port", "path", "allowedHosts"));
        JsonNode port = h.get("port");
        if (port == null || !port.canConvertToInt() || port.asInt() < 0 || port.asInt() > 65535) {
            throw new ConfigException("http.port: expected a port number from 0 to 65535");
        }
        String host = text(h, "host", "http.host", "a host name or address").orElse("127.0.0.1");
        String path = text(h, "path", "http.path", "a path such as /mcp").orElse("/mcp");
        Set<String> allowed = h.has("allowedHosts") ? names(h.get("allowedHosts"), "http.allowedHosts") : Set.of();
        return new Http(host, port.asInt(), path, allowed);
    }

    private static void unknownKeys(ObjectNode node, String prefix, Set<String> known) {
        for (String key : node.propertyNames()) {
            if (!known.contains(key)) {
                throw new ConfigException("unknown key " + prefix + key + "; expected one of "
                        + String.join(", ", new java.util.TreeSet<>(known)));
            }
        }
    }

    private static Optional<String> text(ObjectNode node, String key, String path, String expected) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isString() && !v.isNumber()) {
            throw new ConfigException(path + ": expected " + expected);
        }
        return Optional.of(v.asString());
    }

    private static Optional<Boolean> bool(ObjectNode node, String key, String path) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw new ConfigException(path + ": expected true or false");
        }
        return Optional.of(v.booleanValue());
    }

    private static Set<String> names(JsonNode list, String path) {
        if (!list.isArray() || !list.valueStream().allMatch(JsonNode::isString)) {
            throw new ConfigException(path + ": expected a list of names");
        }
        Set<String> out = new LinkedHashSet<>();
        list.valueStream().map(JsonNode::stringValue).forEach(out::add);
        return out;
    }

    private static Map<String, String> strings(ObjectNode node, String key, String path, Function<String, String> env) {
        if (!node.has(key)) {
            return Map.of();
        }
        if (!(node.get(key) instanceof ObjectNode m)) {
            throw new ConfigException(path + ": expected a mapping of names to strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : m.properties()) {
            if (!e.getValue().isString() && !e.getValue().isNumber() && !e.getValue().isBoolean()) {
                throw new ConfigException(path + "." + e.getKey() + ": expected a string");
            }
            out.put(e.getKey(), interpolate(e.getValue().asString(), path + "." + e.getKey(), env));
        }
        return out;
    }

    /** {@code ${NAME}} replaced by the environment variable; one that is not set is an error naming the key. */
    static String interpolate(String value, String path, Function<String, String> env) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            int open = value.indexOf("${", i);
            if (open < 0) {
                out.append(value, i, value.length());
                break;
            }
            int close = value.indexOf('}', open + 2);
            if (close < 0) {
                throw new ConfigException(path + ": an unterminated ${...} reference");
            }
            String name = value.substring(open + 2, close);
            String resolved = name.isEmpty() ? null : env.apply(name);
            if (resolved == null) {
                throw new ConfigException(path + ": the environment variable " + name + " is not set");
            }
            out.append(value, i, open).append(resolved);
            i = close + 1;
        }
        return out.toString();
    }

    /** {@code maxSize} and {@code maxAge} of a store, each defaulting to {@link Retention#DEFAULT}'s. */
    private static Retention retention(ObjectNode node, String prefix) {
        Retention r = Retention.DEFAULT;
        Optional<Long> size = Optional.empty();
        JsonNode maxSize = node.get("maxSize");
        if (maxSize != null) {
            size = Optional.of(maxSize.isIntegralNumber() ? maxSize.asLong()
                    : size(maxSize.isString() ? maxSize.stringValue() : "", prefix + "maxSize"));
        }
        Optional<Duration> age = text(node, "maxAge", prefix + "maxAge", "a duration such as 14d or 72h")
                .map(t -> duration(t, prefix + "maxAge"));
        try {
            return new Retention(size.orElse(r.maxBytes()), age.orElse(r.maxAge()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(prefix + "maxSize: " + e.getMessage());
        }
    }

    /** A size: a number of bytes, or one with a unit ({@code 512KiB}, {@code 256MiB}, {@code 1GiB}; {@code KB}, {@code MB}, {@code GB} are powers of ten). */
    public static long size(String text, String path) {
        String t = text.trim();
        int end = 0;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        long factor = switch (t.substring(end).trim().toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "kib", "k" -> 1L << 10;
            case "mib", "m" -> 1L << 20;
            case "gib", "g" -> 1L << 30;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            default -> -1L;
        };
        if (end == 0 || end > 12 || factor < 0) {
            throw new ConfigException(path + ": expected a size such as 256MiB, 1GiB or a number of bytes");
        }
        return Long.parseLong(t.substring(0, end)) * factor;
    }

    /** {@code 60s}, {@code 5m}, {@code 1500ms}, {@code 2h}, {@code 14d} or an ISO-8601 duration. */
    public static Duration duration(String text, String path) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (t.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("h")) {
                d = Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("d") && !t.startsWith("p")) {
                d = Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1)));
            } else {
                d = Duration.parse(text.trim());
            }
            if (d.isNegative() || d.isZero()) {
                throw new ConfigException(path + ": expected a positive duration such as 60s, 5m or 1500ms");
            }
            return d;
        } catch (RuntimeException e) {
            if (e instanceof ConfigException c) {
                throw c;
            }
            throw new ConfigException(path + ": expected a duration such as 60s, 5m or 1500ms");
        }
    }

}
