package dev.warden.core.shape;

import dev.warden.core.failure.StatusNames;
import dev.warden.core.failure.HttpStatuses;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Google APIs' JSON error (AIP-193): {@code {"error": {"code": 400, "message": …, "status":
 * "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.rpc.BadRequest", …}]}}}. Read at
 * the inner object (the registry descends into {@code error}); the code comes from {@code status},
 * else from the HTTP {@code code}.
 */
final class GoogleApiShape implements ErrorShape {

    @Override
    public String name() {
        return "google-api";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        String status = Nodes.text(value, "status");
        int http = Nodes.httpStatus(Nodes.member(value, "code"));
        if (status == null || http < 0 || Nodes.text(value, "message") == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        out.code(StatusNames.ofName(status));
        out.code(HttpStatuses.code(http));
        GoogleRpcDetails.read(Nodes.array(value, "details"), out);
        out.message(Nodes.text(value, "message"));
        return out.build();
    }
}
