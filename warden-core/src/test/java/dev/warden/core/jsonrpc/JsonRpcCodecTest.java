package dev.warden.core.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonRpcCodecTest {

    private static final dev.warden.core.error.Ref REF = new dev.warden.core.error.Ref("ref_abcdefghijkmnpqr");

    /** The answer a session gives an invalid frame: the codec's refusal, rendered by the one renderer. */
    private static JsonRpcMessage.Failure replyOf(Decoded decoded) {
        assertThat(decoded).isInstanceOf(Decoded.Invalid.class);
        Optional<Decoded.Refusal> refusal = ((Decoded.Invalid) decoded).refusal();
        assertThat(refusal).isPresent();
        return new JsonRpcMessage.Failure(refusal.get().id(), dev.warden.core.error.ErrorRenderer.rpcError(
                dev.warden.core.error.ProtocolException.refusing(refusal.get()), REF));
    }

    private static JsonRpcMessage messageOf(Decoded decoded) {
        assertThat(decoded).isInstanceOf(Decoded.Message.class);
        return ((Decoded.Message) decoded).message();
    }

    @Test
    void malformedJsonIsParseErrorWithNullId() {
        JsonRpcMessage.Failure reply = replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,"));
        assertThat(reply.error().code()).isEqualTo(-32700);
        assertThat(reply.id()).isEmpty();
        assertThat(JsonRpcCodec.encode(reply)).contains("\"id\":null");
    }

    @Test
    void trailingGarbageAfterAValidObjectIsAParseError() {
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1} x")).error().code())
                .isEqualTo(-32700);
    }

    @Test
    void invalidUtf8IsAParseError() {
        byte[] bytes = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        byte[] broken = new byte[bytes.length];
        System.arraycopy(bytes, 0, broken, 0, bytes.length);
        for (int i = 0; i < broken.length; i++) {
            if (broken[i] == (byte) 0xC3) {
                broken[i + 1] = (byte) 0x28;
            }
        }
        assertThat(replyOf(JsonRpcCodec.decode(broken)).error().code()).isEqualTo(-32700);
    }

    @Test
    void hostileNestingIsAParseErrorNotAStackOverflow() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertThat(replyOf(JsonRpcCodec.decode(deep)).error().code()).isEqualTo(-32700);
    }

    @Test
    void missingJsonrpcIsInvalidRequestKeepingTheId() {
        JsonRpcMessage.Failure reply = replyOf(JsonRpcCodec.decode("{\"id\":7,\"method\":\"ping\"}"));
        assertThat(reply.error().code()).isEqualTo(-32600);
        assertThat(reply.id()).contains(RequestId.of(7));
    }

    @Test
    void wrongJsonrpcVersionIsInvalidRequest() {
        JsonRpcMessage.Failure reply = replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"x\"}"));
        assertThat(reply.error().code()).isEqualTo(-32600);
        assertThat(reply.id()).contains(RequestId.of("a"));
    }

    @Test
    void missingMethodIsInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":3}")).error().code()).isEqualTo(-32600);
    }

    @Test
    void methodThatIsNotAStringIsInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":42}")).error().code())
                .isEqualTo(-32600);
    }

    @Test
    void fractionalIdIsInvalidRequestWithNullId() {
        JsonRpcMessage.Failure reply = replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}"));
        assertThat(reply.error().code()).isEqualTo(-32600);
        assertThat(reply.id()).isEmpty();
    }

    @Test
    void booleanOrObjectIdIsInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"x\"}")).error().code())
                .isEqualTo(-32600);
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}")).error().code())
                .isEqualTo(-32600);
    }

    @Test
    void nullIdOnARequestIsInvalidRequest() {
        JsonRpcMessage.Failure reply = replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}"));
        assertThat(reply.error().code()).isEqualTo(-32600);
        assertThat(reply.id()).isEmpty();
    }

    @Test
    void scalarParamsAreInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":3}"))
                .error().code()).isEqualTo(-32600);
    }

    @Test
    void aScalarIsInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("42")).error().code()).isEqualTo(-32600);
    }

    @Test
    void errorMessagesNeverQuoteTheInput() {
        String probe = "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"<script>secret_probe</script>\"}";
        assertThat(JsonRpcCodec.encode(replyOf(JsonRpcCodec.decode(probe)))).doesNotContain("secret_probe");
    }

    @Test
    void aMessageWithoutIdIsANotification() {
        JsonRpcMessage message = messageOf(JsonRpcCodec.decode(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertThat(message).isInstanceOf(JsonRpcMessage.Notification.class);
    }

    @Test
    void stringAndNumberIdsStayDistinct() {
        JsonRpcMessage a = messageOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"x\"}"));
        JsonRpcMessage b = messageOf(JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}"));
        assertThat(((JsonRpcMessage.Request) a).id()).isNotEqualTo(((JsonRpcMessage.Request) b).id());
        assertThat(JsonRpcCodec.encode(a)).contains("\"id\":\"1\"");
        assertThat(JsonRpcCodec.encode(b)).contains("\"id\":1");
    }

    @Test
    void unknownFieldsSurviveDecodeAndEncode() {
        String text = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"future\":{\"x\":[1,2,{\"y\":null}]}},\"extension\":{\"trace\":\"abc\"}}";
        JsonNode original = Json.mapper().readTree(text);
        JsonNode roundTripped = Json.mapper().readTree(JsonRpcCodec.encode(messageOf(JsonRpcCodec.decode(text))));
        assertThat(roundTripped).isEqualTo(original);
    }

    @Test
    void responsesRoundTripLosslessly() {
        String success = "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":{\"a\":1,\"_meta\":{\"k\":true}},\"x\":1}";
        String failure = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"m\","
                + "\"data\":{\"d\":[1]}}}";
        for (String text : new String[] {success, failure}) {
            assertThat(Json.mapper().readTree(JsonRpcCodec.encode(messageOf(JsonRpcCodec.decode(text)))))
                    .isEqualTo(Json.mapper().readTree(text));
        }
    }

    @Test
    void aMalformedResponseIsDroppedWithoutAReply() {
        Decoded decoded = JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{}}");
        assertThat(decoded).isInstanceOf(Decoded.Invalid.class);
        assertThat(((Decoded.Invalid) decoded).refusal()).isEmpty();
    }

    @Test
    void anEmptyBatchIsInvalidRequest() {
        assertThat(replyOf(JsonRpcCodec.decode("[]")).error().code()).isEqualTo(-32600);
    }

    @Test
    void aBatchDecodesEachItemOnItsOwn() {
        Decoded decoded = JsonRpcCodec.decode("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},1,"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]");
        assertThat(decoded).isInstanceOf(Decoded.Batch.class);
        assertThat(((Decoded.Batch) decoded).items()).hasSize(3)
                .satisfies(items -> {
                    assertThat(items.get(0)).isInstanceOf(Decoded.Message.class);
                    assertThat(items.get(1)).isInstanceOf(Decoded.Invalid.class);
                    assertThat(items.get(2)).isInstanceOf(Decoded.Message.class);
                });
    }

    @Test
    void encodingNeverWritesANewline() {
        JsonRpcMessage message = new JsonRpcMessage.Success(RequestId.of(1),
                Json.mapper().getNodeFactory().stringNode("line1\nline2\r\n"));
        assertThat(JsonRpcCodec.encode(message)).doesNotContain("\n").doesNotContain("\r");
    }

    @Test
    void legacyServerErrorBandIsRecognised() {
        assertThat(JsonRpcError.isLegacyServerErrorBand(-32000)).isTrue();
        assertThat(JsonRpcError.isLegacyServerErrorBand(-32019)).isTrue();
        assertThat(JsonRpcError.isLegacyServerErrorBand(-32020)).isFalse();
        assertThat(JsonRpcError.isLegacyServerErrorBand(-32603)).isFalse();
    }

    @Test
    void encodingWritesTheTextOfTheMessagesTree() {
        JsonNode params = Json.mapper().readTree("{\"name\":\"echo\",\"arguments\":{\"m\":\"a\\n\\u0001\",\"f\":0.5}}");
        JsonNode extra = Json.mapper().readTree("{\"x\":[1,null,true]}");
        java.util.Map<String, JsonNode> extras = new java.util.LinkedHashMap<>();
        extras.put("zeta", extra);
        extras.put("params", extra); // written only where the message has no params of its own
        extras.put("id", extra);
        extras.put("jsonrpc", extra);
        java.util.List<JsonRpcMessage> messages = java.util.List.of(
                new JsonRpcMessage.Request(RequestId.of(7), "tools/call", Optional.of(params), extras),
                new JsonRpcMessage.Request(RequestId.of("s\"1"), "ping", Optional.empty(), extras),
                new JsonRpcMessage.Notification("notifications/progress", Optional.of(params), extras),
                new JsonRpcMessage.Notification("notifications/initialized", Optional.empty(), extras),
                new JsonRpcMessage.Success(RequestId.of(8), params, extras),
                new JsonRpcMessage.Failure(Optional.of(RequestId.of(9)),
                        new JsonRpcError(-32602, "bad \"args\"", Optional.of(extra)), extras),
                new JsonRpcMessage.Failure(Optional.empty(), new JsonRpcError(-32700, "Parse error", Optional.empty()),
                        java.util.Map.of()));
        for (JsonRpcMessage message : messages) {
            assertThat(JsonRpcCodec.encode(message)).isEqualTo(JsonRpcCodec.toTree(message).toString());
        }
        assertThat(JsonRpcCodec.encodeBatch(messages)).isEqualTo(
                "[" + String.join(",", messages.stream().map(m -> JsonRpcCodec.toTree(m).toString()).toList()) + "]");
    }
}
