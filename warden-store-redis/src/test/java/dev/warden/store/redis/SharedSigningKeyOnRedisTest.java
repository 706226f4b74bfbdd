package dev.warden.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.gateway.config.Redis;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SharedSigningKeyOnRedisTest {

    private Replicas replicas;

    @BeforeEach
    void redis() throws Exception {
        replicas = new Replicas();
    }

    @AfterEach
    void stop() throws Exception {
        replicas.close();
    }

    @Test
    void everyReplicaSignsWithTheKeyTheFirstOneMade() {
        byte[] first = replicas.replica("prod").requestStateKey();
        byte[] second = replicas.replica("prod").requestStateKey();
        assertThat(first).hasSize(32).isEqualTo(second);
    }

    @Test
    void replicasStartingAtOnceStillAgreeOnOneKey() throws Exception {
        List<byte[]> keys = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<byte[]>> starts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                starts.add(threads.submit(() -> replicas.replica("prod").requestStateKey()));
            }
            for (Future<byte[]> f : starts) {
                keys.add(f.get());
            }
        }
        assertThat(keys).allSatisfy(k -> assertThat(k).isEqualTo(keys.getFirst()));
    }

    @Test
    void eachClusterHasItsOwnKey() {
        assertThat(replicas.replica("prod").requestStateKey())
                .isNotEqualTo(replicas.replica("staging").requestStateKey());
    }

    @Test
    void theKeyStaysKnownWhenRedisGoesAway() throws Exception {
        RedisStore store = replicas.replica("prod");
        byte[] key = store.requestStateKey();
        replicas.redis.stop();
        assertThat(store.requestStateKey()).isEqualTo(key);
    }

    @Test
    void aReplicaCannotStartWithoutRedisAndTheErrorHidesThePassword() throws Exception {
        replicas.redis.stop();
        String url = "redis://warden:s3cret-pw@127.0.0.1:" + replicas.redis.port();
        assertThatThrownBy(() -> RedisStore.connect(new Redis(url, "prod", Redis.WhenDown.OPEN), replicas.clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redis://127.0.0.1:" + replicas.redis.port())
                .hasMessageNotContaining("s3cret-pw");
    }
}
