package dev.warden.gateway.config;

import static dev.warden.gateway.config.ConfigNodes.integer;
import static dev.warden.gateway.config.ConfigNodes.text;
import static dev.warden.gateway.config.ConfigNodes.unknownKeys;
import static dev.warden.gateway.config.Quantities.duration;

import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The {@code postgres} section ({@link Postgres}); each mistake names its key, never the URL's credentials. */
final class PostgresReader {

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private PostgresReader() {
    }

    static Postgres postgres(JsonNode node, Function<String, String> env) {
        if (!(node instanceof ObjectNode p)) {
            throw new ConfigException("postgres: expected a mapping with \"url\" (postgresql://USER:${PASSWORD}@HOST/DB)");
        }
        unknownKeys(p, "postgres.", Set.of("url", "schema", "maxAge", "batchSize", "linger"));
        String url = text(p, "url", "postgres.url", "postgresql://USER:${PASSWORD}@HOST:PORT/DATABASE")
                .map(u -> Interpolation.interpolate(u, "postgres.url", env))
                .orElseThrow(() -> new ConfigException("postgres.url: expected postgresql://USER:${PASSWORD}@HOST:PORT/"
                        + "DATABASE"));
        if (!url.startsWith("postgresql://") && !url.startsWith("postgres://") && !url.startsWith("jdbc:postgresql://")) {
            throw new ConfigException("postgres.url: expected a URL starting with postgresql://");
        }
        String schema = text(p, "schema", "postgres.schema", "a lower-case SQL name such as warden")
                .orElse(Postgres.DEFAULT_SCHEMA);
        if (!SCHEMA.matcher(schema).matches()) {
            throw new ConfigException("postgres.schema: expected a lower-case SQL name (letters, digits, _) such as warden");
        }
        Duration maxAge = text(p, "maxAge", "postgres.maxAge", "a duration such as 14d or 90d")
                .map(t -> duration(t, "postgres.maxAge")).orElse(Postgres.DEFAULT_MAX_AGE);
        if (maxAge.compareTo(Duration.ofDays(1)) < 0) {
            throw new ConfigException("postgres.maxAge: expected at least 1d (records are dropped by whole days)");
        }
        int batchSize = integer(p, "batchSize", "postgres.batchSize", Postgres.DEFAULT_BATCH_SIZE);
        if (batchSize < 1 || batchSize > 10_000) {
            throw new ConfigException("postgres.batchSize: expected a whole number from 1 to 10000");
        }
        Duration linger = text(p, "linger", "postgres.linger", "a duration such as 2ms")
                .map(t -> duration(t, "postgres.linger")).orElse(Postgres.DEFAULT_LINGER);
        if (linger.isNegative() || linger.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new ConfigException("postgres.linger: expected a duration from 1ms to 1s");
        }
        return new Postgres(url, schema, maxAge, batchSize, linger);
    }
}
