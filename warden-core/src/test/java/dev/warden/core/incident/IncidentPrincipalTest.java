package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.JsonRpcError;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** An incident names its caller's principal whole: kind, issuer and subject, so a key and a token repeating its subject differ. */
class IncidentPrincipalTest {

    private static ObjectNode recordedFor(Caller caller) {
        List<Incident> seen = new CopyOnWriteArrayList<>();
        ErrorBoundary.builder().incidents(seen::add).build().serving(() -> Optional.of(caller))
                .refusal(new ProtocolException(JsonRpcError.INVALID_REQUEST, "Forbidden", ErrorCode.PERMISSION_DENIED),
                        FailureContext.of("tools/call"));
        assertThat(seen).hasSize(1);
        Incident read = IncidentJson.fromJson(IncidentJson.stored(seen.get(0)));
        assertThat(read).isEqualTo(seen.get(0));
        return IncidentJson.summary(read);
    }

    @Test
    void anApiKeysIncidentAndATokensWithTheSameSubjectTellWhichIsWhich() {
        ObjectNode byKey = recordedFor(new Caller("key:alice", Optional.empty(), "api-key", Set.of(), Map.of(),
                Caller.Kind.API_KEY, Optional.empty()));
        ObjectNode byToken = recordedFor(new Caller("key:alice", Optional.empty(), "https://as.example", Set.of(),
                Map.of(), Caller.Kind.JWT, Optional.empty()));

        assertThat(byKey.path("subject").asString()).isEqualTo("key:alice");
        assertThat(byKey.path("issuer").asString()).isEqualTo("api-key");
        assertThat(byKey.path("kind").asString()).isEqualTo("API_KEY");
        assertThat(byToken.path("issuer").asString()).isEqualTo("https://as.example");
        assertThat(byToken.path("kind").asString()).isEqualTo("JWT");
    }
}
