package dev.warden.http.server;

import static dev.warden.testkit.otel.InMemoryTelemetry.SPAN;
import static dev.warden.testkit.otel.InMemoryTelemetry.TRACE;
import static dev.warden.testkit.otel.InMemoryTelemetry.TRACEPARENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.Verdict;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.testkit.otel.InMemoryTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A POST the endpoint refuses before any session sees it still leaves a SERVER span, so an
 * operator can find why a client was refused: named by the method when the body was parsed, else
 * {@code _OTHER} (never by a tool name no registry vouched for); the JSON-RPC and Warden codes, the
 * ref and the HTTP status the client got; an ERROR status only for the server's own failures, as on
 * every server span; the caller's W3C headers as its parent; and none of the body's or headers' values.
 */
class RefusedPostSpansTest {

    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    /** What a client sends that no span may hold: in the body, a token, a session id. */
    private static final String CANARY = "canary4k9z";

    private final InMemoryTelemetry traces = new InMemoryTelemetry();
    private final McpTelemetry telemetry = McpTelemetry.of(traces.sdk());
    private final ProbesAndDrainingTest.TestAdmission admission = new ProbesAndDrainingTest.TestAdmission();
    private McpHttpServer http;
    private HttpPeer peer;

    /** Admits "Bearer ok" only. */
    private static final class OneToken implements Authenticator {
        @Override
        public Verdict authenticate(Credentials credentials, URI resource) {
            return credentials.authorization().filter("Bearer ok"::equals).<Verdict>map(t -> new Verdict.Admitted(
                            new Caller("alice", Optional.of("app"), "https://as.example", Set.of(), Map.of(),
                                    Caller.Kind.JWT, Optional.empty())))
                    .orElseGet(() -> new Verdict.Refused(Verdict.Refusal.INVALID_TOKEN, Set.of(), "not ok"));
        }

        @Override
        public ProtectedResourceMetadata metadata(URI resource) {
            return new ProtectedResourceMetadata(resource, List.of(URI.create("https://as.example")), List.of());
        }
    }

    private void start(Optional<Authenticator> authenticator) throws Exception {
        McpServer server = McpServer.builder("refusing", "1.0.0").incidents(IncidentSink.all())
                .telemetry(telemetry)
                .tool(ToolSpec.builder("echo").handler(call -> ToolResult.text("echoed")).build())
                .build();
        McpHttpServerBuilder b = McpHttpServer.builder().onSession(server::connect).admission(admission)
                .maxBodyBytes(4096).telemetry(telemetry);
        authenticator.ifPresent(b::authenticator);
        http = b.build().start();
        peer = new HttpPeer(http.endpoint());
    }

    @AfterEach
    void stop() {
        HttpPeer.closeAll();
        if (http != null) {
            http.close();
        }
        traces.close();
    }

    private static String call(String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{\"note\":\"" + CANARY + "\"}}}";
    }

    private static Map<String, String> traced(Map<String, String> headers) {
        Map<String, String> h = new HashMap<>(headers);
        h.put("traceparent", TRACEPARENT);
        return h;
    }

    /** The one span the refusal left (no session saw the message, so no other), checked as every refusal's. */
    private SpanData refusal(HttpResponse<String> answer, int status, String name) {
        assertThat(answer.statusCode()).isEqualTo(status);
        JsonNode error = Json.mapper().readTree(answer.body()).path("error");
        List<SpanData> spans = traces.spans();
        assertThat(spans).hasSize(1);
        SpanData span = spans.get(0);
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getName()).isEqualTo(name);
        assertThat(span.getTraceId()).isEqualTo(TRACE);
        assertThat(span.getParentSpanId()).isEqualTo(SPAN);
        assertThat(span.getAttributes().get(HTTP_STATUS)).isEqualTo((long) status);
        assertThat(span.getAttributes().get(McpNames.ERROR_TYPE)).isEqualTo(Integer.toString(error.path("code").asInt()));
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo(error.at("/data/code").asString());
        assertThat(span.getAttributes().get(McpNames.WARDEN_REF)).isEqualTo(error.at("/data/ref").asString())
                .isNotBlank();
        int code = error.path("code").asInt();
        boolean serversOwn = code == -32603 || (code <= -32000 && code >= -32099 && code != -32002);
        if (serversOwn) {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getStatus().getDescription()).isEqualTo(error.path("message").asString());
        } else {
            assertThat(span.getStatus().getStatusCode()).as("the caller's mistake").isEqualTo(StatusCode.UNSET);
        }
        String everything = span.getName() + span.getAttributes() + span.getStatus() + span.getEvents() + span.getLinks();
        assertThat(everything).doesNotContain(CANARY);
        return span;
    }

    @Test
    void anUnsupportedMediaTypeIsASpanNamedOther() throws Exception {
        start(Optional.empty());
        Map<String, String> headers = traced(HttpPeer.jsonHeaders());
        headers.put("Content-Type", "text/plain");
        SpanData span = refusal(peer.send(peer.post(call("echo"), headers)), 415, "_OTHER");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("VALIDATION_ERROR");
    }

    @Test
    void aBodyTooLargeIsASpanNamedOther() throws Exception {
        start(Optional.empty());
        refusal(peer.send(peer.post(call("x".repeat(8192)), traced(HttpPeer.jsonHeaders()))), 413, "_OTHER");
    }

    @Test
    void anUnknownSessionsCallIsNamedByItsMethodAndHoldsNoSessionId() throws Exception {
        start(Optional.empty());
        Map<String, String> headers = traced(HttpPeer.sessionHeaders("session-" + CANARY));
        SpanData span = refusal(peer.send(peer.post(call("echo"), headers)), 404, "tools/call");
        assertThat(span.getAttributes().get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("NOT_FOUND");
        assertThat(span.getAttributes().get(McpNames.MCP_SESSION_ID)).isNull();
    }

    @Test
    void aCallRefusedWhileDrainingIsNamedByItsMethod() throws Exception {
        start(Optional.empty());
        admission.draining.set(true);
        SpanData span = refusal(peer.send(peer.post(call("echo"), traced(HttpPeer.jsonHeaders()))), 503,
                "tools/call");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("RATE_LIMITED");
    }

    @Test
    void anUnauthenticatedPostIsASpanNamedOtherWithoutItsToken() throws Exception {
        start(Optional.of(new OneToken()));
        Map<String, String> headers = traced(HttpPeer.jsonHeaders());
        headers.put("Authorization", "Bearer " + CANARY);
        SpanData span = refusal(peer.send(peer.post(call("echo"), headers)), 401, "_OTHER");
        assertThat(span.getAttributes().get(McpNames.WARDEN_ERROR_CODE)).isEqualTo("PERMISSION_DENIED");
    }
}
