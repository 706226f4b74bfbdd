package dev.warden.http.server;

import static dev.warden.http.server.ReplicaClient.CALL;
import static dev.warden.http.server.ReplicaClient.delete;
import static dev.warden.http.server.ReplicaClient.open;
import static dev.warden.http.server.ReplicaClient.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ended is ended: a portable session's id is accepted in its one canonical spelling only (base64url,
 * no padding, zero trailing bits), so a session its client deleted stays deleted on every replica
 * whatever spelling comes next; and its maximum age holds for the copies already open, not only for
 * those restored.
 */
class EndedSessionsTest {

    private static final SessionKeys KEYS = SessionKeys.parse(SessionKeys.newKeyLine("k1"));
    private static final Duration MAX_AGE = Duration.ofMinutes(5);
    private final TestClock clock = new TestClock();
    private final InProcessReplicas hub = InProcessReplicas.hub(clock);
    private final List<McpHttpServer> servers = new ArrayList<>();

    private McpHttpServer replica(ReplicaBus bus) throws Exception {
        McpServer server = McpServer.builder("replica", "1").incidents(IncidentSink.all())
                .tool(ToolSpec.builder("log").handler(call -> ToolResult.text("ok")).build())
                .build();
        McpHttpServer http = McpHttpServer.builder().clock(clock).onSession(server::connect)
                .sessionIdleTimeout(Duration.ofHours(1)).portableSessions(KEYS, MAX_AGE).replicas(bus).build().start();
        servers.add(http);
        return http;
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        servers.forEach(McpHttpServer::close);
    }

    /**
     * Every other spelling of a sealed id that a lenient base64url decoder reads as the same bytes:
     * the last character with other unused bits, and each of those with its {@code =} padding.
     */
    static List<String> otherSpellings(String id) {
        int body = id.lastIndexOf('.') + 1;
        byte[] bytes = Base64.getUrlDecoder().decode(id.substring(body));
        String prefix = id.substring(0, id.length() - 1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        String padding = "=".repeat((4 - (id.length() - body) % 4) % 4);
        List<String> spellings = new ArrayList<>();
        for (char last : alphabet.toCharArray()) {
            String candidate = prefix + last;
            if (Arrays.equals(Base64.getUrlDecoder().decode(candidate.substring(body)), bytes)) {
                if (!candidate.equals(id)) {
                    spellings.add(candidate);
                }
                if (!padding.isEmpty()) {
                    spellings.add(candidate + padding);
                }
            }
        }
        return spellings;
    }

    private static List<Integer> statuses(McpHttpServer on, List<String> spellings) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (String spelling : spellings) {
            statuses.add(post(on, spelling, CALL.formatted(2, "log")).statusCode());
        }
        return statuses;
    }

    @Test
    void anIdInAnyOtherSpellingIsAnUnknownSession() throws Exception {
        McpHttpServer a = replica(ReplicaBus.none());
        McpHttpServer b = replica(ReplicaBus.none());
        String session = open(a);
        List<String> spellings = otherSpellings(session);
        assertThat(spellings).as("a sealed id has other spellings to try").hasSizeGreaterThan(2);

        assertThat(statuses(a, spellings)).containsOnly(404);
        assertThat(statuses(b, spellings)).containsOnly(404);
        assertThat(post(a, session, CALL.formatted(3, "log")).statusCode()).isEqualTo(200);
    }

    @Test
    void aDeletedSessionIsNotFoundInAnySpellingOnAnyReplica() throws Exception {
        McpHttpServer a = replica(hub.join("a"));
        McpHttpServer b = replica(hub.join("b"));
        String session = open(a);
        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200);

        assertThat(delete(a, session).statusCode()).isEqualTo(200);

        List<String> every = new ArrayList<>(otherSpellings(session));
        every.add(session);
        assertThat(statuses(a, every)).containsOnly(404);
        assertThat(statuses(b, every)).containsOnly(404);
    }

    @Test
    void aRequestOnAnOpenCopyPastTheMaximumAgeIsNotFoundAsOnARestoredOne() throws Exception {
        McpHttpServer a = replica(ReplicaBus.none());
        String session = open(a);
        clock.advance(MAX_AGE.minusMinutes(1));
        assertThat(post(a, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200);

        clock.advance(Duration.ofMinutes(2)); // past the maximum age, well within the idle timeout

        assertThat(post(a, session, CALL.formatted(3, "log")).statusCode()).isEqualTo(404);
    }

    @Test
    void anIdleCopyPastTheMaximumAgeIsClosed() throws Exception {
        McpHttpServer a = replica(ReplicaBus.none());
        open(a);

        clock.advance(MAX_AGE.plusSeconds(1));

        assertThat(a.sessionCount()).isZero();
    }

    @Test
    void aCopyRestoredLateExpiresWhenTheIdDoesNotWhenTheCopyWasMade() throws Exception {
        McpHttpServer a = replica(ReplicaBus.none());
        McpHttpServer b = replica(ReplicaBus.none());
        String session = open(a);
        clock.advance(MAX_AGE.minusMinutes(1));
        assertThat(post(b, session, CALL.formatted(2, "log")).statusCode()).isEqualTo(200); // restored on b

        clock.advance(Duration.ofMinutes(2));

        assertThat(post(b, session, CALL.formatted(3, "log")).statusCode()).isEqualTo(404);
    }
}
