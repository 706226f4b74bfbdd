package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.LocalRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Resuming a call's stream on the live replica that does not serve it, under the official
 * TypeScript SDK client: two {@code warden gateway} replicas with portable sessions on one Redis,
 * the session on A. A network blip cuts a slow call's connection to A after its first progress and
 * the client's requests go to B from then on: the SDK resumes with Last-Event-ID on B, which reads
 * the stream from A across the bus, and the call completes with its real result, no 400. A call
 * aborted by the client: the SDK resumes its ended stream on B and gets its end (200), not a 400.
 */
class ResumeElsewhereEndToEndTest {

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
        Path file = Files.createTempDirectory("warden-resume-elsewhere-e2e").resolve("session-keys");
        Files.writeString(file, "k1 " + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void aStreamResumedOnTheOtherLiveReplicaCompletesTheCallAndAnAbortedOnesEndIsNoError() throws Exception {
        redis = LocalRedis.start(Path.of("target", "redis-e2e"));
        String yaml = yaml(keyFile());
        Map<String, String> env = Map.of("WARDEN_TEST_REDIS_PORT", Integer.toString(redis.port()));
        a = HttpGateway.start(yaml, 1, env);
        b = HttpGateway.start(yaml, 1, env);

        client = new LinePeer(Processes.node("resume-elsewhere.mjs", a.url(), b.url()));
        JsonNode out = Json.mapper().readTree(client.nextLine(GUARD));
        System.out.println("resume-elsewhere e2e: " + out);

        JsonNode blip = out.get("blip");
        assertThat(blip.get("ok").asBoolean()).as(blip.toString()).isTrue();
        assertThat(blip.at("/value/content/0/text").asString()).contains("Long running operation completed");
        List<JsonNode> requests = list(out.get("requests"));
        assertThat(requests).as("no request refused").noneMatch(r -> r.path("status").asInt() >= 400);
        assertThat(requests).as("the blip's resumption, on B").anyMatch(r -> r.path("phase").asString().equals("blip")
                && r.path("method").asString().equals("GET") && r.path("lastEventId").isString()
                && r.path("to").asString().equals("b") && r.path("status").asInt() == 200);
        assertThat(list(out.get("errors"))).as("nothing but the blip itself").allMatch(e ->
                e.path("phase").asString().equals("blip") && e.path("message").asString().contains("network blip"));

        assertThat(out.get("abort").get("ok").asBoolean()).isFalse(); // the client gave up on it
        assertThat(out.get("abortResumeSeen").asBoolean()).as(out.toString()).isTrue();
        assertThat(requests).as("the aborted call's resumption, on B: its end").anyMatch(r ->
                r.path("phase").asString().equals("abort") && r.path("lastEventId").isString()
                && r.path("to").asString().equals("b") && r.path("status").asInt() == 200);
        JsonNode again = out.get("again");
        assertThat(again.get("ok").asBoolean()).as(again.toString()).isTrue();
        assertThat(out.get("sameSession").asBoolean()).isTrue();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }
}
