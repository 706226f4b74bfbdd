/**
 * What several gateway replicas share on Redis: rate limits (Bucket4j's buckets kept in Redis),
 * breakers one replica opened, the key that signs request states, and the replicas' bus
 * ({@link dev.warden.store.redis.RedisReplicaBus}: messages between replicas, liveness, shared facts).
 */
module dev.warden.store.redis {
    requires transitive dev.warden.gateway;
    requires lettuce.core;
    requires io.github.bucket4j.core;
    requires io.github.bucket4j.lettuce;

    exports dev.warden.store.redis;
}
