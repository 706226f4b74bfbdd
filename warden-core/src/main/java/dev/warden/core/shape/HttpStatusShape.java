package dev.warden.core.shape;

import dev.warden.core.failure.HttpStatuses;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The error bodies web frameworks write by default: Spring Boot's ({@code {"status": 404, "error": "Not
 * Found", "message": …, "path": …}}), Fastify's and NestJS's ({@code {"statusCode": 400, "error": "Bad
 * Request", "message": … | [messages]}}) and the many APIs that answer {@code {"status": 429, "message":
 * …, "retry_after": 2}}. The code comes from the status; a NestJS message list (class-validator's
 * messages without their paths) gives the first message.
 */
final class HttpStatusShape implements ErrorShape {

    @Override
    public String name() {
        return "http-status";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode status = Nodes.member(value, "statusCode");
        if (status == null) {
            status = Nodes.member(value, "status");
        }
        int http = Nodes.httpStatus(status);
        JsonNode message = Nodes.member(value, "message");
        if (http < 0 || message == null && Nodes.text(value, "error") == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        out.code(HttpStatuses.code(http));
        if (message != null && message.isString()) {
            out.message(message.stringValue());
        } else if (message != null && message.isArray() && !message.isEmpty() && message.get(0).isString()) {
            out.message(message.get(0).stringValue());
        } else {
            out.message(Nodes.text(value, "error"));
        }
        out.retryAfter(RetryHints.of(value));
        return out.build();
    }
}
