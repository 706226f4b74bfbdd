package dev.warden.core.shape;

import dev.warden.core.failure.StatusNames;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * AWS errors: the awsJson protocols' body ({@code {"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
 * "message": …}}, {@code Message} in some services), the SDK for JavaScript v3's serialized error
 * ({@code {"name": "ValidationException", "$fault": "client", "$metadata": {...}, "message": …}}) and
 * botocore's {@code response["Error"]} ({@code {"Code": …, "Message": …}}). A {@code ValidationException}'s
 * {@code fieldList}/{@code fields} ({@code [{"name", "message"}]}) become violations.
 */
final class AwsShape implements ErrorShape {

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        String type = Nodes.text(value, "__type");
        if (type == null && Nodes.member(value, "$fault") != null) {
            type = Nodes.text(value, "name");
        }
        if (type == null) {
            type = Nodes.text(Nodes.object(value, "Error"), "Code");
        }
        if (type == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        out.code(StatusNames.ofName(type));
        JsonNode metadata = Nodes.object(value, "$metadata");
        out.code(Nodes.codeOfStatus(Nodes.member(metadata, "httpStatusCode")));
        for (String list : new String[] {"fieldList", "fields"}) {
            for (JsonNode f : Nodes.items(Nodes.array(value, list))) {
                if (out.full()) {
                    break;
                }
                String field = Nodes.firstText(f, "name", "path");
                if (field != null) {
                    out.violation(field.startsWith("/") ? Pointers.fromLocation(field) : Pointers.fromDotted(field),
                            Nodes.text(f, "message"));
                }
            }
        }
        String message = Nodes.firstText(value, "message", "Message");
        if (message == null) {
            message = Nodes.text(Nodes.object(value, "Error"), "Message");
        }
        out.message(message);
        out.retryAfter(RetryHints.of(value));
        return out.build();
    }
}
