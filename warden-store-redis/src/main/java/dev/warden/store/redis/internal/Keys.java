package dev.warden.store.redis.internal;

import dev.warden.gateway.config.Limits;

/**
 * Every name this module uses in Redis, under {@code warden:<cluster>:} so that several groups of
 * replicas can share one Redis. No braces: in a Redis Cluster they would make a hash tag and put
 * every key of a group on one node, and no command here spans two keys.
 */
public record Keys(String cluster) {

    /** A rate's bucket: the rate is in the name, so a changed limit starts afresh instead of inheriting the old bucket. */
    public String rate(String scope, Limits.Rate rate) {
        return "warden:" + cluster + ":rate:" + rate.calls() + "/" + rate.period().toMillis() + "ms:" + scope;
    }

    /** Where an open breaker is kept until it closes (its TTL). */
    public String breaker(String name) {
        return breakerPrefix() + name;
    }

    public String breakerPrefix() {
        return "warden:" + cluster + ":breaker:";
    }

    /** Where openings are announced. */
    public String breakerChannel() {
        return "warden:" + cluster + ":breakers";
    }

    /** The request-state signing key. */
    public String requestStateKey() {
        return "warden:" + cluster + ":request-state-key";
    }
}
