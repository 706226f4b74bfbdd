package dev.warden.auth;

import dev.warden.core.time.Durations;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Reads the configuration's {@code auth:} section (see docs/reference/auth.md) into a
 * {@link ResourceServer.Builder}, for the caller to add what a file does not say (its clock, its
 * HTTP client) and build. Every mistake is an {@link AuthConfigException} naming the key and the
 * form expected; unknown keys are refused. {@code ${VAR}} interpolation is the caller's, done
 * before.
 */
public final class AuthConfig {

    private static final Set<String> AUTH = Set.of("resource", "issuers", "scopes", "toolScopes", "clockSkew", "apiKeys");
    private static final Set<String> ISSUER = Set.of("issuer", "jwksUri", "audiences", "algorithms", "introspection");
    private static final Set<String> INTROSPECTION = Set.of("endpoint", "clientId", "clientSecret");
    private static final Set<String> API_KEYS = Set.of("file", "env");

    private AuthConfig() {
    }

    /**
     * @param auth    the section's tree
     * @param path    its key, for messages ({@code auth})
     * @param baseDir what a relative {@code apiKeys.file} is relative to (the configuration's directory)
     * @param env     the environment, for {@code apiKeys.env}
     */
    public static ResourceServer.Builder read(JsonNode auth, String path, Path baseDir, Function<String, String> env) {
        object(auth, path, AUTH);
        ResourceServer.Builder b = ResourceServer.custom();
        text(auth, "resource", path).ifPresent(r -> b.resource(url(r, path + ".resource")));
        JsonNode issuers = auth.get("issuers");
        if (issuers != null && !issuers.isNull()) {
            if (!issuers.isArray()) {
                throw new AuthConfigException(path + ".issuers: expected a list of issuers");
            }
            for (int i = 0; i < issuers.size(); i++) {
                String at = path + ".issuers[" + i + "]";
                Issuer issuer = issuer(issuers.get(i), at);
                try {
                    b.issuer(issuer);
                } catch (IllegalArgumentException e) {
                    throw new AuthConfigException(at + ".issuer: this issuer is already listed");
                }
            }
        }
        b.requiredScopes(KeyDocument.scopes(auth.get("scopes"), path + ".scopes"));
        JsonNode tools = auth.get("toolScopes");
        if (tools != null && !tools.isNull()) {
            if (!tools.isObject()) {
                throw new AuthConfigException(path + ".toolScopes: expected a mapping of tool patterns to lists of scopes");
            }
            Map<String, Set<String>> byPattern = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : tools.properties()) {
                String at = path + ".toolScopes." + e.getKey();
                int star = e.getKey().indexOf('*');
                if (e.getKey().isEmpty() || (star >= 0 && star != e.getKey().length() - 1)) {
                    throw new AuthConfigException(at + ": expected a tool name, or a prefix and a trailing *");
                }
                byPattern.put(e.getKey(), KeyDocument.scopes(e.getValue(), at));
            }
            b.toolScopes(byPattern);
        }
        text(auth, "clockSkew", path).ifPresent(s -> {
            Duration skew = duration(s, path + ".clockSkew");
            if (skew.compareTo(ResourceServer.Builder.MAX_CLOCK_SKEW) > 0) {
                throw new AuthConfigException(path + ".clockSkew: expected at most 5m");
            }
            b.clockSkew(skew);
        });
        JsonNode keys = auth.get("apiKeys");
        boolean haveKeys = keys != null && !keys.isNull();
        if (haveKeys) {
            b.apiKeys(apiKeys(keys, path + ".apiKeys", baseDir, env));
        }
        if (!haveKeys && (issuers == null || issuers.isEmpty())) {
            throw new AuthConfigException(path + ": expected issuers, apiKeys or both");
        }
        return b;
    }

    private static Issuer issuer(JsonNode node, String at) {
        object(node, at, ISSUER);
        String iss = text(node, "issuer", at).orElseThrow(() -> new AuthConfigException(at + ".issuer: expected an http(s) URL"));
        Issuer.Builder b = Issuer.custom(url(iss, at + ".issuer"));
        URI issuerUri = url(iss, at + ".issuer");
        if (issuerUri.getRawQuery() != null || issuerUri.getRawFragment() != null) {
            throw new AuthConfigException(at + ".issuer: expected an http(s) URL without query or fragment");
        }
        text(node, "jwksUri", at).ifPresent(u -> b.jwksUri(url(u, at + ".jwksUri")));
        scopes(node.get("audiences"), at + ".audiences").forEach(b::audience);
        JsonNode algs = node.get("algorithms");
        if (algs != null && !algs.isNull()) {
            Set<String> names = scopes(algs, at + ".algorithms");
            if (names.isEmpty() || !Issuer.SUPPORTED_ALGORITHMS.containsAll(names)) {
                throw new AuthConfigException(at + ".algorithms: expected a list of some of "
                        + new TreeSet<>(Issuer.SUPPORTED_ALGORITHMS));
            }
            b.algorithms(names);
        }
        JsonNode in = node.get("introspection");
        if (in != null && !in.isNull()) {
            String ip = at + ".introspection";
            object(in, ip, INTROSPECTION);
            Optional<URI> endpoint = text(in, "endpoint", ip).map(u -> url(u, ip + ".endpoint"));
            String id = text(in, "clientId", ip).filter(s -> !s.isEmpty())
                    .orElseThrow(() -> new AuthConfigException(ip + ".clientId: expected the resource server's client id"));
            String secret = text(in, "clientSecret", ip).filter(s -> !s.isEmpty())
                    .orElseThrow(() -> new AuthConfigException(ip + ".clientSecret: expected the client's secret, e.g. ${INTROSPECTION_SECRET}"));
            b.introspection(new Introspection(endpoint, id, secret));
        }
        return b.build();
    }

    private static ApiKeys apiKeys(JsonNode node, String at, Path baseDir, Function<String, String> env) {
        object(node, at, API_KEYS);
        Optional<String> file = text(node, "file", at);
        Optional<String> variable = text(node, "env", at);
        if (file.isEmpty() && variable.isEmpty()) {
            throw new AuthConfigException(at + ": expected file, env or both");
        }
        ApiKeys.Builder b = ApiKeys.custom();
        file.ifPresent(f -> {
            Path p;
            try {
                p = baseDir.resolve(f);
            } catch (RuntimeException e) {
                throw new AuthConfigException(at + ".file: expected a file path");
            }
            try {
                b.file(p);
            } catch (AuthConfigException e) {
                throw new AuthConfigException(at + ".file: " + e.getMessage());
            }
        });
        variable.ifPresent(v -> {
            if (v.isEmpty() || !v.chars().allMatch(c -> c == '_' || Character.isLetterOrDigit(c))) {
                throw new AuthConfigException(at + ".env: expected the name of an environment variable");
            }
            try {
                b.env(v, env);
            } catch (AuthConfigException e) {
                throw new AuthConfigException(at + ".env: " + e.getMessage());
            }
        });
        try {
            return b.build();
        } catch (AuthConfigException e) {
            throw new AuthConfigException(at + ".file: " + e.getMessage());
        }
    }

    private static void object(JsonNode node, String at, Set<String> known) {
        if (node == null || !node.isObject()) {
            throw new AuthConfigException(at + ": expected a mapping with some of " + String.join(", ", new TreeSet<>(known)));
        }
        for (String key : node.propertyNames()) {
            if (!known.contains(key)) {
                throw new AuthConfigException("unknown key " + at + "." + key + "; expected one of "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    private static Optional<String> text(JsonNode node, String key, String at) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isString() && !v.isNumber()) {
            throw new AuthConfigException(at + "." + key + ": expected a string");
        }
        return Optional.of(v.asString());
    }

    private static Set<String> scopes(JsonNode v, String at) {
        if (v == null || v.isNull()) {
            return Set.of();
        }
        if (!v.isArray() || !v.valueStream().allMatch(s -> s.isString() && !s.stringValue().isBlank()
                && s.stringValue().chars().noneMatch(c -> c == ' ' || c == '"' || c == '\\'))) {
            throw new AuthConfigException(at + ": expected a list of names (no spaces, quotes or backslashes)");
        }
        Set<String> out = new LinkedHashSet<>();
        v.valueStream().map(JsonNode::stringValue).forEach(out::add);
        return out;
    }

    private static URI url(String text, String at) {
        try {
            return Issuer.requireHttp(new URI(text.strip()), at);
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new AuthConfigException(at + ": expected an http(s) URL");
        }
    }

    /** A duration of zero or more in the one grammar of {@link Durations}: {@code 60s}, {@code 1500ms}, {@code PT1M}… */
    static Duration duration(String text, String at) {
        try {
            Duration d = Durations.parse(text);
            if (!d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the one message below
        }
        throw new AuthConfigException(at + ": expected a duration such as 60s, 5m or 1500ms");
    }
}
