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

    /** The replicas' membership: a sorted set, each replica's score the time of its last heartbeat. */
    public String replicas() {
        return "warden:" + cluster + ":replicas";
    }

    /** Where messages to one replica go. */
    public String replicaChannel(String id) {
        return "warden:" + cluster + ":to:" + id;
    }

    /** Where messages to every replica go (ids are words, so no replica's channel is this one). */
    public String everyReplicaChannel() {
        return "warden:" + cluster + ":to-all";
    }

    /** A shared fact of the replicas' bus: a hash, expiring after its last write. */
    public String fact(String key) {
        return "warden:" + cluster + ":fact:" + key;
    }
}
