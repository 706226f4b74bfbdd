package dev.warden.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.ProtocolVersion;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class StatelessRequestsTest {

    private static JsonRpcMessage.Request request(String method, ObjectNode meta) {
        ObjectNode params = Json.object();
        params.set("_meta", meta);
        return new JsonRpcMessage.Request(RequestId.of(1), method, params);
    }

    private static ObjectNode meta(String version) {
        ObjectNode meta = Json.object().put(ProtocolVersion.META_VERSION, version);
        meta.set(ProtocolVersion.META_CLIENT_CAPABILITIES, Json.object());
        return meta;
    }

    private static int refusal(JsonRpcMessage.Request request) {
        return StatelessRequests.refusal(request).map(ProtocolException::code).orElse(0);
    }

    @Test
    void aSessionsRequestIsNotTheseRulesConcern() {
        assertThat(StatelessRequests.refusal(new JsonRpcMessage.Request(RequestId.of(1), "ping", null))).isEmpty();
        assertThat(StatelessRequests.stateless(Optional.of(Json.object()))).isFalse();
    }

    @Test
    void aStatelessRequestNeedsAStatelessVersionThenCapabilitiesThenAMethodThatExists() {
        assertThat(refusal(request("tools/list", meta("2026-07-28")))).isZero();
        assertThat(refusal(request("tools/list", meta("2025-11-25"))))
                .isEqualTo(JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION);
        ObjectNode noCapabilities = Json.object().put(ProtocolVersion.META_VERSION, "2026-07-28");
        assertThat(refusal(request("initialize", noCapabilities))).isEqualTo(JsonRpcError.INVALID_PARAMS);
        for (String removed : StatelessRequests.REMOVED) {
            assertThat(refusal(request(removed, meta("2026-07-28")))).isEqualTo(JsonRpcError.METHOD_NOT_FOUND);
        }
    }

    @Test
    void onlyStatelessResultsAndDiscoverAreDecorated() {
        ObjectNode result = Json.object();
        Implementation me = Implementation.of("demo", "1.0");
        assertThat(StatelessResults.of(new JsonRpcMessage.Request(RequestId.of(1), "tools/list", null), result, me))
                .isSameAs(result);
        assertThat(StatelessResults.of(request("tools/list", meta("2026-07-28")), result, me).path("ttlMs").asInt(-1))
                .isZero();
        assertThat(StatelessResults.of(new JsonRpcMessage.Request(RequestId.of(1), ServerHandshake.DISCOVER, null),
                result, me).path("_meta").path(ProtocolVersion.META_SERVER_INFO).path("name").asString(""))
                .isEqualTo("demo");
    }
}
