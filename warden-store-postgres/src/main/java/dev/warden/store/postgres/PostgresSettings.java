package dev.warden.store.postgres;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where and how the PostgreSQL store keeps incidents and audit records.
 *
 * @param url {@code postgresql://USER:PASSWORD@HOST:PORT/DATABASE} (or {@code jdbc:postgresql://…}
 *     with {@code user} and {@code password} parameters); never shown by {@link #toString}
 * @param schema the schema the tables live in, created by the first migration if missing
 * @param maxAge how long records are kept: day partitions wholly older than this are dropped
 * @param batchSize the most records one insert transaction carries
 * @param linger how long the writer waits for more records once it has one, before it commits
 * @param commitTimeout how long a caller waiting for its record's commit waits
 * @param waitForCommit whether {@code record} returns only once the record is committed (a
 *     fail-closed gateway: acknowledged means committed); else it returns once the record is queued
 * @param queueCapacity the most records waiting for the writer; beyond it a record is refused at once
 */
public record PostgresSettings(String url, String schema, Duration maxAge, int batchSize, Duration linger,
        Duration commitTimeout, boolean waitForCommit, int queueCapacity) {

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    public static final String DEFAULT_SCHEMA = "warden";
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(14);
    /** Enough to carry a burst in one commit, small enough that one batch's insert stays short. */
    public static final int DEFAULT_BATCH_SIZE = 128;
    /** Short beside a call's own latency; under load batches fill before it passes. */
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(2);
    public static final Duration DEFAULT_COMMIT_TIMEOUT = Duration.ofSeconds(5);
    public static final int DEFAULT_QUEUE_CAPACITY = 10_000;

    public PostgresSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(linger, "linger");
        Objects.requireNonNull(commitTimeout, "commitTimeout");
        endpoint(url); // fails fast on a URL that is not PostgreSQL's
        if (!SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("schema must be a lower-case SQL name (letters, digits, _), got "
                    + schema);
        }
        if (maxAge.compareTo(Duration.ofDays(1)) < 0) {
            throw new IllegalArgumentException("maxAge must be at least one day (partitions are days), got " + maxAge);
        }
        if (batchSize < 1 || batchSize > 10_000) {
            throw new IllegalArgumentException("batchSize must be from 1 to 10000, got " + batchSize);
        }
        if (linger.isNegative() || linger.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("linger must be from 0 to 1s, got " + linger);
        }
        if (!commitTimeout.isPositive()) {
            throw new IllegalArgumentException("commitTimeout must be positive, got " + commitTimeout);
        }
        if (queueCapacity < batchSize) {
            throw new IllegalArgumentException("queueCapacity must be at least batchSize, got " + queueCapacity);
        }
    }

    /** Settings for {@code url} with every default: records queued, not waited for. */
    public static PostgresSettings of(String url) {
        return new PostgresSettings(url, DEFAULT_SCHEMA, DEFAULT_MAX_AGE, DEFAULT_BATCH_SIZE, DEFAULT_LINGER,
                DEFAULT_COMMIT_TIMEOUT, false, DEFAULT_QUEUE_CAPACITY);
    }

    public PostgresSettings withSchema(String schema) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit, queueCapacity);
    }

    public PostgresSettings withMaxAge(Duration maxAge) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit, queueCapacity);
    }

    public PostgresSettings withBatching(int batchSize, Duration linger) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit,
                Math.max(queueCapacity, batchSize));
    }

    public PostgresSettings withCommitTimeout(Duration commitTimeout) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit, queueCapacity);
    }

    public PostgresSettings withWaitForCommit(boolean waitForCommit) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit, queueCapacity);
    }

    /** The most records waiting for the writer (at least the batch size); beyond it a record is refused at once. */
    public PostgresSettings withQueueCapacity(int queueCapacity) {
        return new PostgresSettings(url, schema, maxAge, batchSize, linger, commitTimeout, waitForCommit, queueCapacity);
    }

    /** The JDBC URL, the user and the password the URL carries (the password apart, for the driver's properties). */
    record Endpoint(String jdbcUrl, Optional<String> user, Optional<String> password) {
        @Override
        public String toString() {
            return jdbcUrl;
        }
    }

    static Endpoint endpoint(String url) {
        String rest;
        if (url.startsWith("postgresql://")) {
            rest = url.substring("postgresql://".length());
        } else if (url.startsWith("postgres://")) {
            rest = url.substring("postgres://".length());
        } else if (url.startsWith("jdbc:postgresql://")) {
            return new Endpoint(url, Optional.empty(), Optional.empty()); // user and password as its parameters
        } else {
            throw new IllegalArgumentException("postgres url must start with postgresql:// (or jdbc:postgresql://)");
        }
        // The last '@' of all: a password may hold '/', '?' or '#' (an interpolated ${SECRET} is not
        // percent-encoded), a host, port or database name holds no '@'.
        int at = rest.lastIndexOf('@');
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        if (at >= 0) {
            String info = rest.substring(0, at);
            int colon = info.indexOf(':');
            user = Optional.of(decode(colon < 0 ? info : info.substring(0, colon))).filter(u -> !u.isEmpty());
            password = colon < 0 ? Optional.empty() : Optional.of(decode(info.substring(colon + 1)));
            rest = rest.substring(at + 1);
        }
        if (rest.isEmpty() || rest.startsWith("/")) {
            throw new IllegalArgumentException("postgres url must name a host, as postgresql://HOST:PORT/DATABASE");
        }
        try {
            URI.create("jdbc-check://" + rest); // a malformed host or port fails here, without the credentials
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("postgres url: the host, port or database is malformed");
        }
        return new Endpoint("jdbc:postgresql://" + rest, user, password);
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // Not e's message: it quotes the characters after the '%', which are the password's.
            throw new IllegalArgumentException("postgres url: the user or password has a '%' that is no "
                    + "percent-encoding (write it as %25)");
        }
    }

    /** The URL without its user and password: what a log or an error may name. */
    public String redactedUrl() {
        String jdbc = endpoint(url).jdbcUrl();
        int at = jdbc.lastIndexOf('@');
        if (at >= 0) {
            jdbc = "jdbc:postgresql://[redacted]@" + jdbc.substring(at + 1); // a user:password left in a jdbc: URL
        }
        return jdbc.replaceAll("(?i)([?&](ssl)?password=)[^&]*", "$1***");
    }

    @Override
    public String toString() {
        return "PostgresSettings[url=" + redactedUrl() + ", schema=" + schema + ", maxAge=" + maxAge + ", batchSize="
                + batchSize + ", linger=" + linger + ", commitTimeout=" + commitTimeout + ", waitForCommit="
                + waitForCommit + ", queueCapacity=" + queueCapacity + "]";
    }
}
