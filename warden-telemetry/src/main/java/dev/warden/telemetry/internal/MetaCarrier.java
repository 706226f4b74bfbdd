package dev.warden.telemetry.internal;

import dev.warden.telemetry.McpNames;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A message's {@code params} as the carrier of the application's propagators: they read and write
 * the keys of {@code params._meta} (W3C {@code traceparent}, {@code tracestate}, {@code baggage},
 * unprefixed as SEP-414 says). Only string members are read; anything else is no context.
 */
public final class MetaCarrier {

    public static final TextMapGetter<JsonNode> GETTER = new TextMapGetter<>() {
        @Override
        public String get(JsonNode params, String key) {
            if (params == null) {
                return null; // the interface's contract: a missing carrier has no value
            }
            JsonNode value = params.path(McpNames.META).path(key);
            return value.isString() ? value.stringValue() : null;
        }
    };

    /** Writes into {@code params._meta}, creating it; the params object must be the sender's own copy. */
    public static final TextMapSetter<ObjectNode> SETTER = (params, key, value) -> {
        if (params == null) {
            return;
        }
        JsonNode meta = params.get(McpNames.META);
        ObjectNode into = meta instanceof ObjectNode object ? object : params.putObject(McpNames.META);
        into.put(key, value);
    };

    private MetaCarrier() {
    }
}
