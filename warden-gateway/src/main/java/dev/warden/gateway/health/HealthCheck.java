package dev.warden.gateway.health;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One dependency the gateway cannot serve without (a shared Redis, a PostgreSQL audit store), as
 * readiness sees it: while its probe fails, throws, or does not answer within {@code within}, the
 * gateway reports itself not ready, naming the check by {@code name} alone. The name is what a
 * load balancer's operator reads in {@code GET /readyz}; it is public, so it names a role
 * ({@code redis}, {@code postgres}), never an address or a credential.
 *
 * <pre>{@code
 * Gateway.builder().healthCheck(HealthCheck.of("redis", Duration.ofSeconds(1), () -> "PONG".equals(redis.ping())))
 * }</pre>
 *
 * @param name   letters, digits and {@code -_.:}, at most 64 characters
 * @param within how long the probe may take (at most 10 s: a load balancer's check waits for no more)
 * @param probe  true when the dependency serves; it runs on a virtual thread of its own
 */
public record HealthCheck(String name, Duration within, Probe probe) {

    /** The longest a probe may be given. */
    public static final Duration MAX_WITHIN = Duration.ofSeconds(10);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    public HealthCheck {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a health check's name must be 1 to 64 letters, digits or -_.:, got \""
                    + name + "\"");
        }
        if (Readiness.DRAINING.equals(name)) {
            throw new IllegalArgumentException("\"" + Readiness.DRAINING + "\" is the gateway's own check");
        }
        Objects.requireNonNull(within, "within");
        if (within.isNegative() || within.isZero() || within.compareTo(MAX_WITHIN) > 0) {
            throw new IllegalArgumentException("a health check's bound must be positive and at most " + MAX_WITHIN
                    + ", got " + within + " for \"" + name + "\"");
        }
        Objects.requireNonNull(probe, "probe");
    }

    public static HealthCheck of(String name, Duration within, Probe probe) {
        return new HealthCheck(name, within, probe);
    }

    /** Asks a dependency whether it serves (a PING, a {@code SELECT 1}). */
    @FunctionalInterface
    public interface Probe {
        /** True when the dependency serves; false or an exception when not (its text is never shown). */
        boolean healthy() throws Exception;
    }
}
