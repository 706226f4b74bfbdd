package dev.warden.core.shape;

import tools.jackson.databind.JsonNode;

/**
 * The {@code google.rpc} error details a {@code Status} carries in {@code details[]}, by {@code @type}:
 * {@code BadRequest.fieldViolations[{field, description}]} (field a dotted path such as
 * {@code emailAddresses[1].email}) and {@code RetryInfo.retryDelay} (a protobuf Duration, {@code "1.5s"}).
 */
final class GoogleRpcDetails {

    private GoogleRpcDetails() {
    }

    static void read(JsonNode details, Extracted.Builder out) {
        for (JsonNode d : Nodes.items(details)) {
            String type = Nodes.text(d, "@type");
            if (type == null) {
                continue;
            }
            if (type.endsWith("google.rpc.BadRequest")) {
                for (JsonNode v : Nodes.items(Nodes.array(d, "fieldViolations"))) {
                    if (out.full()) {
                        break;
                    }
                    String field = Nodes.text(v, "field");
                    if (field != null) {
                        out.violation(Pointers.fromDotted(field), Nodes.text(v, "description"));
                    }
                }
            } else if (type.endsWith("google.rpc.RetryInfo")) {
                out.retryAfter(RetryHints.protobufDuration(Nodes.member(d, "retryDelay")));
            }
        }
    }
}
