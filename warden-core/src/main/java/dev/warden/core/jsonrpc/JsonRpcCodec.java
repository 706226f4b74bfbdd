package dev.warden.core.jsonrpc;

import dev.warden.core.json.Json;
import dev.warden.core.json.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns frames into {@link JsonRpcMessage}s and back.
 *
 * <p>Decoding never throws: malformed JSON becomes a -32700 refusal with a null id, a structurally
 * invalid request a -32600 refusal carrying the id when it can be read ({@link Decoded.Refusal}:
 * rendered, with Warden's code and a recorded ref, by whoever answers). The messages are fixed
 * text; nothing from the input is echoed into them. Encoding writes unknown members back unchanged.
 */
public final class JsonRpcCodec {

    private static final String VERSION = "2.0";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonRpcCodec() {
    }

    public static Decoded decode(String text) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(text);
        } catch (JacksonException | IllegalArgumentException e) {
            return parseError();
        }
        return decodeTree(root);
    }

    /** Decodes raw bytes; invalid UTF-8 is a parse error like any other malformed JSON. */
    public static Decoded decode(byte[] utf8) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(utf8);
        } catch (JacksonException | IllegalArgumentException e) {
            return parseError();
        }
        return decodeTree(root);
    }

    private static Decoded decodeTree(JsonNode root) {
        if (root == null || root.isMissingNode()) {
            return parseError();
        }
        if (root.isArray()) {
            if (root.isEmpty()) {
                return invalid(Optional.empty(), "empty batch");
            }
            List<Decoded> items = new ArrayList<>(root.size());
            for (JsonNode element : root) {
                items.add(decodeObject(element));
            }
            return new Decoded.Batch(items);
        }
        return decodeObject(root);
    }

    private static Decoded decodeObject(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            return invalid(Optional.empty(), "not an object");
        }
        JsonNode idNode = object.get("id");
        Optional<RequestId> id = RequestId.fromJson(idNode);
        boolean isResponseShape = !object.has("method") && (object.has("result") || object.has("error"));

        JsonNode version = object.get("jsonrpc");
        if (version == null || !version.isString() || !VERSION.equals(version.stringValue())) {
            return isResponseShape ? dropped("response without jsonrpc 2.0") : invalid(id, "jsonrpc is not \"2.0\"");
        }
        if (isResponseShape) {
            return decodeResponse(object, idNode, id);
        }
        JsonNode method = object.get("method");
        if (method == null || !method.isString()) {
            return invalid(id, method == null ? "no method" : "method is not a string");
        }
        JsonNode params = object.get("params");
        if (params != null && !params.isNull() && !params.isObject() && !params.isArray()) {
            return invalid(id, "params is neither an object nor an array");
        }
        Optional<JsonNode> paramsValue = params == null || params.isNull() ? Optional.empty() : Optional.of(params);
        Map<String, JsonNode> extras = extras(object, "jsonrpc", "id", "method", "params");
        if (idNode == null) {
            return new Decoded.Message(new JsonRpcMessage.Notification(method.stringValue(), paramsValue, extras));
        }
        if (id.isEmpty()) {
            return invalid(Optional.empty(), idNode.isNull() ? "null id on a request" : "id is not a string or integer");
        }
        return new Decoded.Message(new JsonRpcMessage.Request(id.get(), method.stringValue(), paramsValue, extras));
    }

    private static Decoded decodeResponse(ObjectNode object, JsonNode idNode, Optional<RequestId> id) {
        boolean hasResult = object.has("result");
        boolean hasError = object.has("error");
        if (hasResult && hasError) {
            return dropped("response with both result and error");
        }
        Map<String, JsonNode> extras = extras(object, "jsonrpc", "id", "result", "error");
        if (hasResult) {
            if (id.isEmpty()) {
                return dropped("result without a usable id");
            }
            return new Decoded.Message(new JsonRpcMessage.Success(id.get(), object.get("result"), extras));
        }
        if (idNode == null || (id.isEmpty() && !idNode.isNull())) {
            return dropped("error without a usable id");
        }
        JsonNode error = object.get("error");
        JsonNode code = error == null ? null : error.get("code");
        JsonNode message = error == null ? null : error.get("message");
        if (!(error instanceof ObjectNode) || code == null || !code.isIntegralNumber() || !code.canConvertToInt()
                || message == null || !message.isString()) {
            return dropped("malformed error object");
        }
        JsonNode data = error.get("data");
        JsonRpcError rpcError = new JsonRpcError(code.intValue(), message.stringValue(), Optional.ofNullable(data));
        return new Decoded.Message(new JsonRpcMessage.Failure(id, rpcError, extras));
    }

    /**
     * The message as one line of JSON: the text {@link #toTree}'s {@code toString()} gives, written
     * straight from the message ({@link JsonText}), without building the envelope's tree first.
     */
    public static String encode(JsonRpcMessage message) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"jsonrpc\":\"2.0\"");
        switch (message) {
            case JsonRpcMessage.Request r -> {
                member(b, "id", r.id().toJson());
                b.append(",\"method\":");
                JsonText.string(b, r.method());
                r.params().ifPresent(p -> member(b, "params", p));
            }
            case JsonRpcMessage.Notification n -> {
                b.append(",\"method\":");
                JsonText.string(b, n.method());
                n.params().ifPresent(p -> member(b, "params", p));
            }
            case JsonRpcMessage.Success s -> {
                member(b, "id", s.id().toJson());
                member(b, "result", s.result());
            }
            case JsonRpcMessage.Failure f -> {
                member(b, "id", f.id().map(RequestId::toJson).orElse(NODES.nullNode()));
                b.append(",\"error\":{\"code\":").append(f.error().code()).append(",\"message\":");
                JsonText.string(b, f.error().message());
                f.error().data().ifPresent(d -> member(b, "data", d));
                b.append('}');
            }
        }
        if (!message.extras().isEmpty()) {
            // As toTree: an extra member is written unless the envelope has one of its name.
            for (Map.Entry<String, JsonNode> extra : message.extras().entrySet()) {
                if (!envelopeHas(message, extra.getKey())) {
                    member(b, extra.getKey(), extra.getValue());
                }
            }
        }
        return b.append('}').toString();
    }

    private static void member(StringBuilder b, String name, JsonNode value) {
        b.append(',');
        JsonText.string(b, name);
        b.append(':');
        JsonText.append(b, value);
    }

    /** Whether {@link #toTree} writes a member of this name for the message itself. */
    private static boolean envelopeHas(JsonRpcMessage message, String name) {
        return switch (name) {
            case "jsonrpc" -> true;
            case "id" -> !(message instanceof JsonRpcMessage.Notification);
            case "method" -> message instanceof JsonRpcMessage.Request || message instanceof JsonRpcMessage.Notification;
            case "params" -> message instanceof JsonRpcMessage.Request r ? r.params().isPresent()
                    : message instanceof JsonRpcMessage.Notification n && n.params().isPresent();
            case "result" -> message instanceof JsonRpcMessage.Success;
            case "error" -> message instanceof JsonRpcMessage.Failure;
            default -> false;
        };
    }

    public static String encodeBatch(List<? extends JsonRpcMessage> messages) {
        StringBuilder b = new StringBuilder(256 * messages.size() + 2).append('[');
        for (JsonRpcMessage message : messages) {
            b.append(b.length() > 1 ? "," : "").append(encode(message));
        }
        return b.append(']').toString();
    }

    public static ObjectNode toTree(JsonRpcMessage message) {
        ObjectNode node = NODES.objectNode();
        node.put("jsonrpc", VERSION);
        switch (message) {
            case JsonRpcMessage.Request r -> {
                node.set("id", r.id().toJson());
                node.put("method", r.method());
                r.params().ifPresent(p -> node.set("params", p));
            }
            case JsonRpcMessage.Notification n -> {
                node.put("method", n.method());
                n.params().ifPresent(p -> node.set("params", p));
            }
            case JsonRpcMessage.Success s -> {
                node.set("id", s.id().toJson());
                node.set("result", s.result());
            }
            case JsonRpcMessage.Failure f -> {
                node.set("id", f.id().map(RequestId::toJson).orElse(NODES.nullNode()));
                ObjectNode error = node.putObject("error");
                error.put("code", f.error().code());
                error.put("message", f.error().message());
                f.error().data().ifPresent(d -> error.set("data", d));
            }
        }
        message.extras().forEach((key, value) -> {
            if (!node.has(key)) {
                node.set(key, value);
            }
        });
        return node;
    }

    private static Map<String, JsonNode> extras(ObjectNode object, String... known) {
        Map<String, JsonNode> extras = null;
        outer:
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            for (String k : known) {
                if (k.equals(entry.getKey())) {
                    continue outer;
                }
            }
            if (extras == null) {
                extras = new LinkedHashMap<>();
            }
            extras.put(entry.getKey(), entry.getValue());
        }
        return extras == null ? Map.of() : extras;
    }

    private static Decoded parseError() {
        return new Decoded.Invalid(Optional.of(new Decoded.Refusal(Optional.empty(), JsonRpcError.PARSE_ERROR,
                "Parse error: the message is not valid JSON")), "malformed JSON");
    }

    private static Decoded invalid(Optional<RequestId> id, String reason) {
        return new Decoded.Invalid(Optional.of(new Decoded.Refusal(id, JsonRpcError.INVALID_REQUEST,
                "Invalid request: not a valid JSON-RPC 2.0 request")), reason);
    }

    private static Decoded dropped(String reason) {
        return new Decoded.Invalid(Optional.empty(), reason);
    }
}
