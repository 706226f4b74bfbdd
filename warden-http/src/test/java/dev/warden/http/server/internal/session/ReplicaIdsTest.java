package dev.warden.http.server.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ids of a portable session's questions name the replica that asked, and give the original back. */
class ReplicaIdsTest {

    private static RequestId sentAs(RequestId original, String replica) {
        String frame = ReplicaIds.naming(new JsonRpcMessage.Request(original, "elicitation/create", Json.object()),
                replica);
        return ((JsonRpcMessage.Request) ((Decoded.Message) JsonRpcCodec.decode(frame)).message()).id();
    }

    @Test
    void aNumberIdComesBackAsTheSameNumber() {
        RequestId sent = sentAs(RequestId.of(42), "replica-1");

        assertThat(sent).isEqualTo(RequestId.of("w:replica-1:n42"));
        assertThat(ReplicaIds.named(sent)).contains(new ReplicaIds.Named("replica-1", RequestId.of(42)));
    }

    @Test
    void aTextIdComesBackAsTheSameTextWhateverItHolds() {
        RequestId sent = sentAs(RequestId.of("w:other:n1:x"), "a.b");

        assertThat(ReplicaIds.named(sent)).contains(new ReplicaIds.Named("a.b", RequestId.of("w:other:n1:x")));
    }

    @Test
    void idsThisSchemeDidNotWriteNameNobody() {
        for (String id : new String[] {"w:", "w:a", "w:a:", "w::n1", "w:a:x1", "w:a:nope", "x:a:n1", "42"}) {
            assertThat(ReplicaIds.named(RequestId.of(id))).as(id).isEmpty();
        }
        assertThat(ReplicaIds.named(RequestId.of(7))).isEmpty();
    }

    @Test
    void anAnswerGetsItsRequestsOriginalIdBack() {
        JsonRpcMessage.Response answer = new JsonRpcMessage.Success(RequestId.of("w:a:n3"), Json.object());

        assertThat(ReplicaIds.idOf(ReplicaIds.original(answer, RequestId.of(3)))).isEqualTo(Optional.of(RequestId.of(3)));
    }
}
