package dev.warden.client.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The trace context a request carries in {@code _meta} goes in its W3C headers too, for the HTTP
 * hops that read only those; a value that could not be a header stays out of them.
 */
class TraceContextHeadersTest {

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private static HttpRequest labelled(ObjectNode meta) {
        ObjectNode params = Json.object().put("name", "lookup");
        params.set("_meta", meta);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/mcp"));
        RequestLabels labels = new RequestLabels();
        labels.traceHeaders(RequestLabels::fromMeta); // a caller that put its own context in _meta
        labels.label(b, new JsonRpcMessage.Request(RequestId.of(1), "tools/call", Optional.of(params),
                Map.of()));
        return b.POST(HttpRequest.BodyPublishers.noBody()).build();
    }

    @Test
    void theContextInMetaIsSentAsTheW3cHeaders() {
        HttpRequest request = labelled(Json.object().put("traceparent", TRACEPARENT).put("tracestate", "a=1,b=2")
                .put("com.example/other", "not a header"));
        assertThat(request.headers().firstValue("traceparent")).contains(TRACEPARENT);
        assertThat(request.headers().firstValue("tracestate")).contains("a=1,b=2");
        assertThat(request.headers().map()).doesNotContainKey("com.example/other");
    }

    @Test
    void aValueThatCouldNotBeAHeaderIsNotSentAsOne() {
        HttpRequest request = labelled(Json.object().put("traceparent", TRACEPARENT + "\r\nX-Injected: 1")
                .put("tracestate", "x".repeat(513)));
        assertThat(request.headers().firstValue("traceparent")).isEmpty();
        assertThat(request.headers().firstValue("tracestate")).isEmpty();
        assertThat(request.headers().firstValue("X-Injected")).isEmpty();
    }

    @Test
    void noContextNoHeaders() {
        HttpRequest request = labelled(Json.object());
        assertThat(request.headers().firstValue("traceparent")).isEmpty();
    }
}
