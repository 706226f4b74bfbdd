package dev.warden.http.server;

import static dev.warden.http.server.HttpPeer.sessionHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An id is the client's again as soon as it has the answer: a request that reuses it at once, on
 * another connection, is served, never refused as a duplicate of the request just answered.
 */
class ReusedIdsTest {

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";

    private McpHttpServer http;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("ids", "1").incidents(IncidentSink.all()).build();
        http = McpHttpServer.builder().onSession(server::connect).build().start();
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        http.close();
    }

    @Test
    void anIdReusedAsSoonAsItsAnswerArrivesIsServedEachTime() throws Exception {
        String session = new HttpPeer(http.endpoint()).initialize();
        for (int i = 0; i < 100; i++) {
            HttpPeer fresh = new HttpPeer(http.endpoint()); // a new connection, as a client's pool may use
            HttpResponse<String> pong = fresh.send(fresh.post(PING, sessionHeaders(session)));
            assertThat(pong.statusCode()).as("ping %d", i).isEqualTo(200);
            assertThat(pong.body()).contains("\"id\":2").contains("\"result\"");
            fresh.close();
        }
    }
}
