package dev.warden.core.shape;

import dev.warden.core.failure.StatusNames;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * JSON:API error objects (jsonapi.org/format/#error-objects): {@code {"errors": [{"status": "422",
 * "code": …, "title": …, "detail": …, "source": {"pointer": "/data/attributes/email"} | {"parameter":
 * "include"}}]}}. The code comes from the first error's {@code status} (else its {@code code}); an error
 * with no source gives the top-level message.
 */
final class JsonApiShape implements ErrorShape {

    @Override
    public String name() {
        return "jsonapi";
    }

    /** A JSON:API error has a source, a detail or a string status; GraphQL's and others' have none. */
    private static boolean isJsonApiError(JsonNode e) {
        JsonNode source = Nodes.object(e, "source");
        boolean isJsonApi = source != null || Nodes.text(e, "detail") != null
                || (Nodes.member(e, "status") != null && Nodes.member(e, "status").isString());
        return isJsonApi && !(Nodes.member(e, "message") != null && source == null);
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        List<JsonNode> errors = Nodes.items(value, "errors", JsonApiShape::isJsonApiError);
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        for (JsonNode e : errors) {
            JsonNode source = Nodes.object(e, "source");
            String detail = Nodes.firstText(e, "detail", "title");
            out.code(Nodes.codeOfStatus(Nodes.member(e, "status")));
            String pointer = Nodes.text(source, "pointer");
            String parameter = Nodes.text(source, "parameter");
            if (detail == null) {
                continue;
            }
            if (pointer != null) {
                out.violation(Pointers.fromLocation(pointer), detail);
            } else if (parameter != null) {
                out.violation(Pointers.fromDotted(parameter), detail);
            } else {
                out.message(detail);
            }
            if (out.full()) {
                break;
            }
        }
        for (JsonNode e : Nodes.items(Nodes.array(value, "errors"))) {
            out.code(StatusNames.ofName(Nodes.text(e, "code")));
        }
        return out.build();
    }
}
