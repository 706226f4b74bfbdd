package dev.warden.core.shape;

import dev.warden.core.failure.StatusNames;
import dev.warden.core.error.ErrorCode;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A GraphQL response's {@code errors} (GraphQL spec, section 7.1.2): {@code [{"message": …, "locations":
 * […], "path": ["createUser"], "extensions": {"code": "BAD_USER_INPUT"}}]}. An error with a
 * {@code path} is a violation at that path (a path into the response: the field whose resolver failed);
 * one without gives the message. The code is the first error's {@code extensions.code}
 * ({@code BAD_USER_INPUT}, {@code UNAUTHENTICATED}, {@code FORBIDDEN}, {@code NOT_FOUND}…); a response
 * without {@code data} is a request error (the query or its variables were rejected before execution):
 * {@code VALIDATION_ERROR}.
 */
final class GraphQlShape implements ErrorShape {

    @Override
    public String name() {
        return "graphql";
    }

    /**
     * The spec's members only ({@code message}, {@code locations}, {@code path}, {@code extensions}: "services
     * should not provide any additional entries"), a string {@code message} and at least one member beside it.
     */
    private static boolean isGraphQlError(JsonNode e) {
        if (Nodes.text(e, "message") == null || e.size() < 2 || e.size() > 4) {
            return false;
        }
        for (String key : e.propertyNames()) {
            if (!key.equals("message") && !key.equals("locations") && !key.equals("path") && !key.equals("extensions")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        List<JsonNode> errors = Nodes.items(value, "errors", GraphQlShape::isGraphQlError);
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        for (JsonNode e : errors) {
            String message = Nodes.text(e, "message");
            out.code(StatusNames.ofName(Nodes.text(Nodes.object(e, "extensions"), "code")));
            JsonNode path = Nodes.array(e, "path");
            if (path != null && !out.full()) {
                out.violation(Pointers.fromSegments(path), message);
            } else {
                out.message(message);
            }
        }
        if (Nodes.member(value, "data") == null) {
            out.code(ErrorCode.VALIDATION_ERROR);
        }
        return out.build();
    }
}
