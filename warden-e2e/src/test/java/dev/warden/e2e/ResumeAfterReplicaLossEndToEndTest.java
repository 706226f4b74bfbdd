package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code kill -9} of the replica serving a slow call, under the official TypeScript SDK client:
 * two {@code warden gateway} replicas with portable sessions on one Redis; the client's session
 * starts on A; after the call's first progress A is killed and the client's requests go to B (as a
 * load balancer would send them). The SDK resumes the call's stream on B with Last-Event-ID; B sees
 * that the stream was A's and that A is down, and answers the call with a retryable error at once
 * (not after the SDK's 60 s request timeout); the same call sent again succeeds on B, in the same
 * session.
 */
class ResumeAfterReplicaLossEndToEndTest {

    private static final Duration GUARD = Duration.ofSeconds(90);
    private LocalRedis redis;
    private HttpGateway a;
    private HttpGateway b;
    private LinePeer client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.destroy();
        }
        for (HttpGateway g : new HttpGateway[] {a, b}) {
            if (g != null) {
                g.stop();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static String yaml(Path keyFile) {
        return """
                http:
                  port: 0
                  sessions: { portable: { keyFile: %s, maxAge: 1h } }
                redis: { url: "redis://127.0.0.1:${WARDEN_TEST_REDIS_PORT}", cluster: e2e-%s }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(keyFile, UUID.randomUUID().toString().substring(0, 8), Processes.NODE,
                WardenClientWithServerEverythingTest.SERVER);
    }

    private static Path keyFile() throws Exception {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Path file = Files.createTempDirectory("warden-resume-e2e").resolve("session-keys");
        Files.writeString(file, "k1 " + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void aCallInFlightOnAKilledReplicaFailsRetryablyAtOnceAndSucceedsWhenSentAgain() throws Exception {
        redis = LocalRedis.start(Path.of("target", "redis-e2e"));
        String yaml = yaml(keyFile());
        Map<String, String> env = Map.of("WARDEN_TEST_REDIS_PORT", Integer.toString(redis.port()));
        a = HttpGateway.start(yaml, 1, env);
        b = HttpGateway.start(yaml, 1, env);

        client = new LinePeer(Processes.node("resume-after-kill.mjs", a.url(), b.url()));
        assertThat(client.nextLine(GUARD)).isEqualTo("{\"event\":\"progress\"}");
        ProcessHandle.of(a.peer().pid()).orElseThrow().destroyForcibly(); // kill -9
        assertThat(a.peer().awaitExit(GUARD)).isEqualTo(137);
        client.send("killed");

        JsonNode out = Json.mapper().readTree(client.nextLine(GUARD));
        System.out.println("resume-after-kill e2e: " + out);
        JsonNode slow = out.get("slow");
        assertThat(slow.get("ok").asBoolean()).as(slow.toString()).isFalse();
        assertThat(slow.at("/error/code").asInt()).as("not the SDK's request timeout (-32001)").isEqualTo(-32603);
        assertThat(slow.at("/error/message").asString()).contains("stopped before answering");
        assertThat(slow.at("/error/data/retryable").asBoolean()).isTrue();
        JsonNode again = out.get("again");
        assertThat(again.get("ok").asBoolean()).as(again.toString()).isTrue();
        assertThat(again.at("/value/content/0/text").asString()).contains("Long running operation completed");
        assertThat(out.get("sameSession").asBoolean()).isTrue();
    }
}
