package dev.warden.core.session;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** Handles incoming notifications, one at a time and in arrival order. Exceptions are logged, never answered. */
@FunctionalInterface
public interface NotificationHandler {
    void handle(String method, Optional<JsonNode> params) throws Exception;
}
