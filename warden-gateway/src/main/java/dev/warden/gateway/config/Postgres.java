package dev.warden.gateway.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code postgres: { url, schema, maxAge, batchSize, linger }}: incidents and audit records kept in
 * PostgreSQL instead of the data directory, so every replica of a gateway writes to and reads from
 * the same place. The URL carries its credentials as {@code ${ENV}} references; it is never shown
 * by {@link #toString}.
 *
 * @param url {@code postgresql://USER:PASSWORD@HOST:PORT/DATABASE}, references resolved
 * @param schema where the tables are (created by the store's first migration)
 * @param maxAge how long records are kept (whole days are dropped)
 * @param batchSize the most records one insert commits
 * @param linger how long a batch waits for more records
 */
public record Postgres(String url, String schema, Duration maxAge, int batchSize, Duration linger) {

    public static final String DEFAULT_SCHEMA = "warden";
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(14);
    public static final int DEFAULT_BATCH_SIZE = 128;
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(2);

    public Postgres {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(linger, "linger");
    }

    /** {@code url} with the defaults. */
    public static Postgres of(String url) {
        return new Postgres(url, DEFAULT_SCHEMA, DEFAULT_MAX_AGE, DEFAULT_BATCH_SIZE, DEFAULT_LINGER);
    }

    @Override
    public String toString() {
        return "Postgres[url=(not shown), schema=" + schema + ", maxAge=" + maxAge + ", batchSize=" + batchSize
                + ", linger=" + linger + "]";
    }
}
