package dev.warden.client;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.core.transport.Transport;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A scripted server for what a real one would not do (lie about its output, speak a strange version). */
final class FakeServer {

    private FakeServer() {
    }

    static Supplier<Transport> connector(BiFunction<String, JsonNode, JsonNode> answers, String version) {
        ObjectNode caps = Json.object();
        caps.putObject("tools");
        return connector(answers, version, caps);
    }

    static Supplier<Transport> connector(BiFunction<String, JsonNode, JsonNode> answers, String version,
                                         ObjectNode capabilities) {
        return () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            InMemoryTransport server = pair.right();
            server.start(new Transport.Listener() {
                @Override
                public void onFrame(byte[] frame) {
                    if (JsonRpcCodec.decode(frame) instanceof Decoded.Message m
                            && m.message() instanceof JsonRpcMessage.Request r) {
                        JsonNode result;
                        if (r.method().equals("initialize")) {
                            ObjectNode init = Json.object();
                            init.put("protocolVersion", version);
                            init.set("capabilities", capabilities);
                            init.putObject("serverInfo").put("name", "fake").put("version", "0");
                            result = init;
                        } else {
                            try {
                                result = answers.apply(r.method(), r.params().orElse(Json.object()));
                            } catch (RuntimeException e) {
                                server.send(JsonRpcCodec.encode(new JsonRpcMessage.Failure(java.util.Optional.of(
                                        r.id()), dev.warden.core.jsonrpc.JsonRpcError.of(
                                        dev.warden.core.jsonrpc.JsonRpcError.METHOD_NOT_FOUND, "Method not found"))));
                                return;
                            }
                        }
                        server.send(JsonRpcCodec.encode(new JsonRpcMessage.Success(r.id(), result)));
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


}
