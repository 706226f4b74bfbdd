package dev.warden.gateway.config;

import static dev.warden.gateway.config.ConfigNodes.bool;
import static dev.warden.gateway.config.ConfigNodes.integer;
import static dev.warden.gateway.config.ConfigNodes.names;
import static dev.warden.gateway.config.ConfigNodes.rate;
import static dev.warden.gateway.config.ConfigNodes.strings;
import static dev.warden.gateway.config.ConfigNodes.text;
import static dev.warden.gateway.config.ConfigNodes.unknownKeys;
import static dev.warden.gateway.config.Quantities.duration;

import dev.warden.client.auth.OAuth;
import dev.warden.client.auth.TokenExchange;
import dev.warden.core.sanitize.Policy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One server of the configuration ({@code upstreams.NAME} or {@code mcpServers.NAME}) read into
 * an {@link Upstream}: how to reach it, then each of its settings, every mistake naming its key.
 */
final class UpstreamReader {

    /** The keys a server's mapping may have ({@code type} and {@code cwd} of the clients' JSON are accepted and ignored). */
    static final Set<String> KEYS = Set.of("command", "args", "env", "url", "headers", "timeout",
            "toolTimeouts", "policy", "redactCredentialsInResults", "tools", "type", "cwd", "disabled", "breaker",
            "maxConcurrent", "rateLimit", "pii", "oauth", "tokenExchange", "maxMessageBytes", "perClient",
            "closeIdleAfter", "roots", "inheritEnv", "maxConnections", "maxConcurrentPerClient", "pin", "pinMode");

    private UpstreamReader() {
    }

    /** A server name from the file as an upstream name: kept when valid, else its letters and digits. */
    static String safeName(String name, String path) {
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

    static Upstream upstream(String name, ObjectNode s, String path, Function<String, String> env,
            int defaultMaxBytes, Path baseDir) {
        unknownKeys(s, path + ".", KEYS);
        boolean stdio = s.has("command");
        int maxBytes = integer(s, "maxMessageBytes", path + ".maxMessageBytes", defaultMaxBytes);
        if (maxBytes < 1024) {
            throw new ConfigException(path + ".maxMessageBytes: expected a number of bytes of at least 1024");
        }
        if (stdio == s.has("url")) {
            throw new ConfigException(path + ": expected exactly one of \"command\" (a stdio server) and \"url\" "
                    + "(a Streamable HTTP server)");
        }
        Upstream base;
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
            base = Upstream.stdio(name, command, StdioEnvironment.minimal(strings(s, "env", path + ".env", env), inherit),
                    maxBytes);
        } else {
            String url = text(s, "url", path + ".url", "an http or https URL").orElseThrow();
            URI uri;
            try {
                uri = URI.create(Interpolation.interpolate(url, path + ".url", env));
            } catch (IllegalArgumentException | ConfigException e) {
                throw new ConfigException(path + ".url: expected an http or https URL");
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new ConfigException(path + ".url: expected an http or https URL");
            }
            Map<String, String> headers = strings(s, "headers", path + ".headers", env);
            if (s.has("tokenExchange")) {
                if (s.has("oauth")) {
                    throw new ConfigException(path + ".tokenExchange: the upstream's credentials come either from "
                            + "oauth or from a token exchange, not both");
                }
                if (!bool(s, "perClient", path + ".perClient").orElse(true)) {
                    throw new ConfigException(path + ".perClient: a token exchange acts for each caller, on a "
                            + "connection of its own; perClient cannot be false");
                }
                base = Upstream.http(name, uri, headers, tokenExchange(s.get("tokenExchange"),
                        path + ".tokenExchange", uri, env), maxBytes);
            } else {
                base = Upstream.http(name, uri, headers, s.has("oauth") ? Optional.of(oauth(s.get("oauth"),
                        path + ".oauth", env)) : Optional.empty(), maxBytes);
            }
        }
        Upstream.Builder u = base.toBuilder();
        Optional<Duration> timeout = text(s, "timeout", path + ".timeout", "a duration such as 60s, 5m or 1500ms")
                .map(t -> duration(t, path + ".timeout"));
        if (timeout.isPresent()) {
            u.timeout(timeout.get());
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
            u.toolTimeouts(perTool);
        }
        Optional<String> policy = text(s, "policy", path + ".policy", "redact, strict or passthrough");
        if (policy.isPresent()) {
            try {
                u.policy(Policy.parse(policy.get()));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(path + ".policy: expected redact, strict or passthrough");
            }
        }
        Optional<Boolean> perClient = bool(s, "perClient", path + ".perClient");
        if (perClient.isPresent()) {
            u.perClient(perClient.get());
        }
        Optional<Duration> idle = text(s, "closeIdleAfter", path + ".closeIdleAfter",
                "a duration such as 10m or 90s").map(t -> duration(t, path + ".closeIdleAfter"));
        if (idle.isPresent()) {
            u.closeIdleAfter(idle.get());
        }
        Optional<Boolean> pii = bool(s, "pii", path + ".pii");
        if (pii.isPresent()) {
            u.pii(pii.get());
        }
        redaction(s, path, u);
        if (s.has("roots")) {
            JsonNode r = s.get("roots");
            if (!r.isArray() || !r.valueStream().allMatch(v -> v.isString() && rootUri(v.stringValue()).isPresent())) {
                throw new ConfigException(path + ".roots: expected a list of absolute paths or file:// URIs");
            }
            u.roots(Optional.of(r.valueStream().map(v -> rootUri(v.stringValue()).orElseThrow()).toList()));
        }
        u.limits(limits(s, path, base.limits()));
        if (s.has("tools")) {
            if (!(s.get("tools") instanceof ObjectNode t)) {
                throw new ConfigException(path + ".tools: expected a mapping with \"allow\" and/or \"deny\" lists");
            }
            unknownKeys(t, path + ".tools.", Set.of("allow", "deny"));
            Optional<Set<String>> allow = t.has("allow") ? Optional.of(names(t.get("allow"), path + ".tools.allow"))
                    : Optional.empty();
            Set<String> deny = t.has("deny") ? names(t.get("deny"), path + ".tools.deny") : Set.of();
            u.tools(allow, deny);
        }
        u.pin(pin(s, path, baseDir));
        return u.build();
    }

    /**
     * {@code pin: FILE} (relative to the configuration's directory) and {@code pinMode: block|warn}
     * (warn by default): the file is read now, so a missing or malformed one stops the gateway
     * from starting, naming the key.
     */
    private static Optional<Pin> pin(ObjectNode s, String path, Path baseDir) {
        Optional<String> file = text(s, "pin", path + ".pin", "the path of a pin file (warden audit --pin)");
        Optional<String> mode = text(s, "pinMode", path + ".pinMode", "block or warn");
        if (file.isEmpty()) {
            if (mode.isPresent()) {
                throw new ConfigException(path + ".pinMode: needs a pin file (pin)");
            }
            return Optional.empty();
        }
        Pin.Mode m = switch (mode.orElse("warn")) {
            case "warn" -> Pin.Mode.WARN;
            case "block" -> Pin.Mode.BLOCK;
            default -> throw new ConfigException(path + ".pinMode: expected block or warn");
        };
        Path resolved = baseDir.resolve(file.get());
        try {
            return Optional.of(new Pin(resolved, dev.warden.core.pin.DefinitionPins.read(resolved), m));
        } catch (java.io.IOException e) {
            throw new ConfigException(path + ".pin: the pin file " + resolved + " could not be read");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path + ".pin: " + e.getMessage());
        }
    }

    /**
     * {@code tokenExchange: { tokenEndpoint, clientId, clientSecret, resource, audience, scopes }}:
     * the caller's token exchanged (RFC 8693) for one issued to this upstream; {@code resource}
     * defaults to the upstream's URL.
     */
    private static TokenExchange tokenExchange(JsonNode node, String path, URI url, Function<String, String> env) {
        if (!(node instanceof ObjectNode o)) {
            throw new ConfigException(path + ": expected a mapping with tokenEndpoint, clientId and clientSecret");
        }
        unknownKeys(o, path + ".", Set.of("tokenEndpoint", "clientId", "clientSecret", "resource", "audience",
                "scopes"));
        Function<String, String> required = key -> text(o, key, path + "." + key, "a string")
                .map(v -> Interpolation.interpolate(v, path + "." + key, env))
                .orElseThrow(() -> new ConfigException(path + "." + key + ": required"));
        try {
            TokenExchange.Builder b = TokenExchange.builder(URI.create(required.apply("tokenEndpoint")),
                    required.apply("clientId"), required.apply("clientSecret"));
            b.resource(text(o, "resource", path + ".resource", "an absolute URI").map(URI::create).orElse(url));
            text(o, "audience", path + ".audience", "a name").ifPresent(b::audience);
            if (o.has("scopes")) {
                b.scopes(names(o.get("scopes"), path + ".scopes"));
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int got = message.indexOf(", got ");
            throw new ConfigException(path + ": " + (got < 0 ? message : message.substring(0, got)));
        }
    }

    /**
     * {@code oauth: { clientId, clientSecret, clientName, redirectUri, clientMetadataUrl }}, all
     * optional: with none, the gateway registers itself where the server allows it. The browser
     * step is headless: for authorization servers that approve this client without a user.
     */
    private static OAuth oauth(JsonNode node, String path, Function<String, String> env) {
        if (!(node instanceof ObjectNode o)) {
            throw new ConfigException(path + ": expected a mapping (clientId, clientSecret, clientName, redirectUri, "
                    + "clientMetadataUrl), or {} to register dynamically");
        }
        unknownKeys(o, path + ".", Set.of("clientId", "clientSecret", "clientName", "redirectUri",
                "clientMetadataUrl"));
        OAuth.Builder b = OAuth.builder();
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
                .map(v -> Interpolation.interpolate(v, path + ".clientId", env));
        Optional<String> secret = text(o, "clientSecret", path + ".clientSecret", "a secret")
                .map(v -> Interpolation.interpolate(v, path + ".clientSecret", env));
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
    private static void redaction(ObjectNode s, String path, Upstream.Builder u) {
        String key = path + ".redactCredentialsInResults";
        JsonNode r = s.get("redactCredentialsInResults");
        if (r == null || r.isNull()) {
            return;
        }
        if (r.isBoolean()) {
            u.redactSuccessfulResults(r.booleanValue());
            return;
        }
        if (!(r instanceof ObjectNode o)) {
            throw new ConfigException(key + ": expected true, false, or a mapping with \"default\" and \"tools\"");
        }
        unknownKeys(o, key + ".", Set.of("default", "tools"));
        Optional<Boolean> all = bool(o, "default", key + ".default");
        if (all.isPresent()) {
            u.redactSuccessfulResults(all.get());
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
            u.redactResultsOf(byTool);
        }
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
                throw new ConfigException(path + ".breaker: expected a mapping with failureRate, minimumCalls, window, "
                        + "openFor and countToolErrors");
            }
            unknownKeys(b, path + ".breaker.", Set.of("failureRate", "minimumCalls", "window", "openFor",
                    "countToolErrors"));
            Limits.Breaker d = limits.breaker();
            int rate = integer(b, "failureRate", path + ".breaker.failureRate", d.failureRatePercent());
            int minimum = integer(b, "minimumCalls", path + ".breaker.minimumCalls", d.minimumCalls());
            int window = integer(b, "window", path + ".breaker.window", Math.max(d.window(), minimum));
            Duration openFor = text(b, "openFor", path + ".breaker.openFor", "a duration such as 30s")
                    .map(t -> duration(t, path + ".breaker.openFor")).orElse(d.openFor());
            boolean toolErrors = bool(b, "countToolErrors", path + ".breaker.countToolErrors")
                    .orElse(d.countToolErrors());
            try {
                out = out.withBreaker(new Limits.Breaker(rate, minimum, window, openFor, toolErrors));
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
        if (s.has("maxConcurrentPerClient")) {
            int max = integer(s, "maxConcurrentPerClient", path + ".maxConcurrentPerClient", 0);
            if (max < 1) {
                throw new ConfigException(path + ".maxConcurrentPerClient: expected a whole number of at least 1");
            }
            out = out.withMaxConcurrentPerClient(max);
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
}
