package dev.warden.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.transport.StdioTransport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a peer on stdio receives for frames that never become requests (malformed JSON, an invalid
 * request, a line over the size limit): the codec and the transport only refuse; the session
 * records the refusal and the one renderer answers, so each answer has Warden's code and a ref
 * that resolves to an incident.
 */
class StdioRefusalTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();

    private List<JsonNode> answersTo(String input, int maxMessageBytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Session session = Session.builder(StdioTransport.of(
                        new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out, maxMessageBytes))
                .boundary(ErrorBoundary.builder().incidents(incidents::add).build()).build();
        session.start();
        session.closed().get(20, TimeUnit.SECONDS); // end of input: answers written, then closed
        return out.toString(StandardCharsets.UTF_8).lines().map(l -> Json.mapper().readTree(l)).toList();
    }

    private Incident incidentOf(JsonNode answer) {
        String ref = answer.at("/error/data/ref").asString("");
        return incidents.stream().filter(i -> i.ref().value().equals(ref)).findFirst()
                .orElseThrow(() -> new AssertionError("no incident for ref " + ref + " in " + incidents));
    }

    @Test
    void aParseErrorCarriesWardensCodeAndARefThatResolves() throws Exception {
        JsonNode answer = answersTo("{\"jsonrpc\":\"2.0\",\"id\":1,\n", 1024).get(0);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(answer.get("id").isNull()).isTrue();
        assertThat(answer.at("/error/data/code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(incidentOf(answer).code()).isEqualTo(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void theIncidentOfAnInvalidFrameSaysWhyItWasRefused() throws Exception {
        JsonNode answer = answersTo("{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}\n", 1024).get(0);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(answer.get("id").asInt()).isEqualTo(4);
        assertThat(incidentOf(answer).reason()).contains("jsonrpc is not \"2.0\"");
        assertThat(answer.toString()).doesNotContain("jsonrpc is not");
    }

    @Test
    void anOversizedRequestIsAnsweredWithItsIdWardensCodeAndARefThatResolves() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"x\":\""
                + "a".repeat(5000) + "\"}}";
        JsonNode answer = answersTo(big + "\n", 1024).get(0);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(answer.get("id").asInt()).isEqualTo(9);
        assertThat(answer.at("/error/data/code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(answer.at("/error/message").asString()).contains("1024 bytes");
        assertThat(incidentOf(answer).method()).isEqualTo(Session.FRAME);
    }
}
