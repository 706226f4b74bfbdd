package dev.warden.gateway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code redis: { url, cluster, rateLimitsWhenDown }}: the Redis that several gateway replicas
 * share (their rate limits, the breakers one of them opened, the key that signs request states).
 * Absent, nothing is shared and nothing needs Redis.
 *
 * @param url {@code redis://[user:password@]host:port[/db]} or {@code rediss://} (TLS); a password
 *     comes from the environment ({@code ${REDIS_PASSWORD}}), and is never printed: not by
 *     {@link #toString()}, not in an error
 * @param cluster the name of this group of replicas: every key is under {@code warden:{cluster}:},
 *     so several gateways' groups can share one Redis
 * @param rateLimitsWhenDown what a rate limit does while Redis cannot be reached
 * @param replica this replica's name among the others ({@code redis.replica}): 1–27 of
 *     {@code [A-Za-z0-9_-]}; its id on the bus is this name, {@code _} and 4 random characters,
 *     new at each start (so that a late answer to a question asked before a restart never
 *     completes one asked after it); empty, the id is 10 random characters
 */
public record Redis(String url, String cluster, WhenDown rateLimitsWhenDown, Optional<String> replica) {

    private static final Pattern REPLICA = Pattern.compile("[A-Za-z0-9_-]{1,27}");

    /** Without a fixed replica id (one is made at start). */
    public Redis(String url, String cluster, WhenDown rateLimitsWhenDown) {
        this(url, cluster, rateLimitsWhenDown, Optional.empty());
    }

    private static final Pattern CLUSTER = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /**
     * {@link #OPEN}: each replica counts with a bucket of its own (the limit becomes N per replica
     * for as long as Redis is away: calls keep flowing, still bounded). {@link #CLOSED}: tool calls
     * are refused as RATE_LIMITED until Redis is back.
     */
    public enum WhenDown {
        OPEN, CLOSED;

        public static WhenDown parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "open" -> OPEN;
                case "closed" -> CLOSED;
                default -> throw new IllegalArgumentException("expected open or closed");
            };
        }
    }

    public Redis {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(rateLimitsWhenDown, "rateLimitsWhenDown");
        Objects.requireNonNull(replica, "replica");
        if (replica.isPresent() && !REPLICA.matcher(replica.get()).matches()) {
            throw new IllegalArgumentException("replica must be 1 to 27 letters, digits, '_' or '-'");
        }
        if (cluster == null || !CLUSTER.matcher(cluster).matches()) {
            throw new IllegalArgumentException("cluster must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url must look like redis://host:6379 (or rediss:// for TLS)");
        }
        if (!("redis".equals(u.getScheme()) || "rediss".equals(u.getScheme())) || u.getHost() == null) {
            throw new IllegalArgumentException("url must look like redis://host:6379 (or rediss:// for TLS)");
        }
    }

    /** Where the Redis is, without credentials: for logs and errors. */
    public String where() {
        URI u = URI.create(url);
        return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "");
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "Redis[" + where() + ", cluster=" + cluster + ", rateLimitsWhenDown=" + rateLimitsWhenDown
                + replica.map(r -> ", replica=" + r).orElse("") + "]";
    }
}
