package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code redis: { url, cluster, rateLimitsWhenDown }}: the Redis several replicas share. Its
 * password comes from the environment and is never printed, not even in an error.
 */
class RedisSectionTest {

    private static final Map<String, String> ENV = Map.of("REDIS_PASSWORD", "s3cret-pw");

    private static Optional<Redis> redis(String section) {
        String text = (section.isEmpty() ? "" : "redis: " + section + "\n") + "upstreams: { a: { command: x } }";
        return GatewayConfig.parse(text, ENV::get).redis();
    }

    @Test
    void withoutTheSectionNothingIsShared() {
        assertThat(redis("")).isEmpty();
    }

    @Test
    void theUrlTakesItsPasswordFromTheEnvironment() {
        Redis r = redis("{ url: \"redis://warden:${REDIS_PASSWORD}@10.0.0.5:6379\", cluster: prod }").orElseThrow();
        assertThat(r.url()).isEqualTo("redis://warden:s3cret-pw@10.0.0.5:6379");
        assertThat(r.cluster()).isEqualTo("prod");
        assertThat(r.rateLimitsWhenDown()).isEqualTo(Redis.WhenDown.OPEN);
    }

    @Test
    void itsTextNeverShowsThePassword() {
        Redis r = redis("{ url: \"redis://warden:${REDIS_PASSWORD}@10.0.0.5:6379\", cluster: prod }").orElseThrow();
        assertThat(r.toString()).contains("redis://10.0.0.5:6379").doesNotContain("s3cret-pw", "warden:");
        assertThat(r.where()).isEqualTo("redis://10.0.0.5:6379");
    }

    @Test
    void rateLimitsMayFailClosed() {
        assertThat(redis("{ url: redis://127.0.0.1:6379, cluster: prod, rateLimitsWhenDown: closed }")
                .orElseThrow().rateLimitsWhenDown()).isEqualTo(Redis.WhenDown.CLOSED);
    }

    @Test
    void aUrlThatIsNotRedisIsNamedWithoutItsValue() {
        assertThatThrownBy(() -> redis("{ url: \"http://warden:${REDIS_PASSWORD}@host\", cluster: prod }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.url: ")
                .hasMessageNotContaining("s3cret-pw");
    }

    @Test
    void theClusterIsRequiredAndPlain() {
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379 }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.cluster: ");
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379, cluster: \"a:b\" }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.cluster: ");
    }

    @Test
    void anUnknownKeyIsNamed() {
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379, cluster: prod, password: x }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("unknown key redis.password");
    }

    @Test
    void aReplicaIdMayBeFixedOrLeftToBeMade() {
        assertThat(redis("{ url: redis://127.0.0.1:6379, cluster: prod, replica: gw-1 }").orElseThrow().replica())
                .hasValue("gw-1");
        assertThat(redis("{ url: redis://127.0.0.1:6379, cluster: prod }").orElseThrow().replica()).isEmpty();
    }

    @Test
    void aReplicaIdIsOneShortWord() {
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379, cluster: prod, replica: \"a b\" }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.replica: ");
    }

    @Test
    void aReplicaNameLeavesRoomForItsPerRunSuffixAndHasNoDot() {
        assertThat(redis("{ url: redis://127.0.0.1:6379, cluster: prod, replica: " + "a".repeat(27) + " }")
                .orElseThrow().replica()).hasValue("a".repeat(27));
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379, cluster: prod, replica: " + "a".repeat(28) + " }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.replica: ");
        assertThatThrownBy(() -> redis("{ url: redis://127.0.0.1:6379, cluster: prod, replica: gw.1 }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("redis.replica: ");
    }
}
