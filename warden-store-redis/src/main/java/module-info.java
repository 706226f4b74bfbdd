/**
 * What several gateway replicas share on Redis: rate limits (Bucket4j's buckets kept in Redis),
 * breakers one replica opened, and the key that signs request states.
 */
module dev.warden.store.redis {
    requires transitive dev.warden.gateway;
    requires lettuce.core;
    requires io.github.bucket4j.core;
    requires io.github.bucket4j.lettuce;

    exports dev.warden.store.redis;
}
