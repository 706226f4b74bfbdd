package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server that asks for what the client did not declare (the TypeScript SDK's servers do unless
 * told to be strict): refused with -32601 by default; answered, still undeclared, by a handler
 * set with {@code onUndeclared} (how a proxy puts it to its own client).
 */
class McpClientUndeclaredTest {

    /** What the server saw declared at initialize, and the answer to the sampling request it sent after. */
    private final CompletableFuture<ObjectNode> declared = new CompletableFuture<>();
    private final CompletableFuture<JsonRpcMessage> answer = new CompletableFuture<>();

    /** A session-based server (server/discover is unknown to it) that asks for sampling once initialized. */
    private Supplier<Transport> askingServer() {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            InMemoryTransport server = pair.right();
            server.start(new Transport.Listener() {
                @Override
                public void onFrame(byte[] frame) {
                    if (!(JsonRpcCodec.decode(frame) instanceof Decoded.Message m)) {
                        return;
                    }
                    switch (m.message()) {
                        case JsonRpcMessage.Request r when r.method().equals("initialize") -> {
                            declared.complete((ObjectNode) r.params().orElseThrow().path("capabilities"));
                            ObjectNode init = Json.object();
                            init.put("protocolVersion", "2025-11-25");
                            init.putObject("capabilities").putObject("tools");
                            init.putObject("serverInfo").put("name", "asking").put("version", "0");
                            server.send(JsonRpcCodec.encode(new JsonRpcMessage.Success(r.id(), init)));
                        }
                        case JsonRpcMessage.Notification n when n.method().equals("notifications/initialized") -> {
                            ObjectNode params = Json.object();
                            params.putArray("messages");
                            params.put("maxTokens", 1);
                            server.send(JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of("s1"),
                                    "sampling/createMessage", params)));
                        }
                        case JsonRpcMessage.Request r -> server.send(JsonRpcCodec.encode(new JsonRpcMessage.Failure(
                                Optional.of(r.id()), dev.warden.core.jsonrpc.JsonRpcError.of(-32601, "Method not found"))));
                        case JsonRpcMessage.Success s -> answer.complete(s);
                        case JsonRpcMessage.Failure f -> answer.complete(f);
                        default -> {
                        }
                    }
                }

                @Override
                public void onFrameError(dev.warden.core.error.ProtocolException error) {
                }

                @Override
                public void onClose() {
                }
            });
            return pair.left();
        };
    }

    @Test
    void anUndeclaredRequestIsAnsweredByTheUndeclaredHandlerWithoutTheCapabilityBeingDeclared() throws Exception {
        try (McpClient client = McpClient.builder("proxy", "1").onUndeclared("sampling/createMessage",
                params -> Json.object().put("model", "answered anyway")).connect(askingServer())) {
            assertThat(declared.get(5, TimeUnit.SECONDS).has("sampling")).isFalse();
            assertThat(answer.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(JsonRpcMessage.Success.class,
                    s -> assertThat(s.result().path("model").asString()).isEqualTo("answered anyway"));
        }
    }

    @Test
    void withoutOneAnUndeclaredRequestIsMethodNotFound() throws Exception {
        try (McpClient client = McpClient.builder("plain", "1").connect(askingServer())) {
            assertThat(answer.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(JsonRpcMessage.Failure.class,
                    f -> assertThat(f.error().code()).isEqualTo(-32601));
        }
    }

    @Test
    void onlyTheMethodsOfTheAskingCapabilitiesCanBeAnsweredUndeclared() {
        assertThatThrownBy(() -> McpClient.builder("proxy", "1").onUndeclared("tools/call", params -> Json.object()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("onUndeclared");
    }
}
