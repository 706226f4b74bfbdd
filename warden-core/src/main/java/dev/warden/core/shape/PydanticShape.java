package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Pydantic's {@code ValidationError.errors()} / {@code .json()} ({@code [{"type": "missing", "loc":
 * ["address", "city"], "msg": "Field required", "input": …}]}) and FastAPI's 422 body, the same list
 * under {@code detail} with the request part first in {@code loc} ({@code ["body", "email"]}, kept as
 * is: it says where in the request the member is). FastAPI's {@code HTTPException} body
 * ({@code {"detail": "Item not found"}}) gives a message only.
 */
final class PydanticShape implements ErrorShape {

    @Override
    public String name() {
        return "pydantic";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        if (value == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        JsonNode list = value.isArray() ? value : Nodes.member(value, "detail");
        if (list != null && list.isString() && value.isObject() && value.size() <= 2) {
            return out.message(list.stringValue()).build();
        }
        if (list == null || !list.isArray()) {
            return Optional.empty();
        }
        for (JsonNode e : Nodes.items(list)) {
            if (out.full()) {
                break;
            }
            JsonNode loc = Nodes.array(e, "loc");
            if (loc != null) {
                out.violation(Pointers.fromSegments(loc), Nodes.text(e, "msg"));
            }
        }
        return out.hasViolations() ? out.build() : Optional.empty();
    }
}
