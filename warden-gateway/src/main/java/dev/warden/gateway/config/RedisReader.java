package dev.warden.gateway.config;

import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code redis: { url, cluster, rateLimitsWhenDown, replica }}; errors name the key, never the value (a URL may hold a password). */
final class RedisReader {

    private RedisReader() {
    }

    static Redis redis(JsonNode node, Function<String, String> env) {
        if (!(node instanceof ObjectNode r)) {
            throw new ConfigException("redis: expected a mapping with \"url\" and \"cluster\"");
        }
        ConfigNodes.unknownKeys(r, "redis.", Set.of("url", "cluster", "rateLimitsWhenDown", "replica"));
        ObjectNode v = (ObjectNode) ConfigNodes.interpolated(r, "redis", env);
        String url = ConfigNodes.text(v, "url", "redis.url", "redis://host:6379")
                .orElseThrow(() -> new ConfigException("redis.url: expected redis://host:6379 (or rediss:// for TLS)"));
        String cluster = ConfigNodes.text(v, "cluster", "redis.cluster", "a name")
                .orElseThrow(() -> new ConfigException("redis.cluster: expected the name of this group of replicas"));
        Redis.WhenDown whenDown;
        try {
            whenDown = Redis.WhenDown.parse(ConfigNodes.text(v, "rateLimitsWhenDown", "redis.rateLimitsWhenDown",
                    "open or closed").orElse("open"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("redis.rateLimitsWhenDown: expected open or closed");
        }
        java.util.Optional<String> replica = ConfigNodes.text(v, "replica", "redis.replica", "this replica's id");
        try {
            return new Redis(url, cluster, whenDown, replica);
        } catch (IllegalArgumentException e) {
            String key = e.getMessage().startsWith("cluster") ? "redis.cluster"
                    : e.getMessage().startsWith("replica") ? "redis.replica" : "redis.url";
            throw new ConfigException(key + ": " + e.getMessage());
        }
    }
}
