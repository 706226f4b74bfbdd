package dev.warden.core.jsonrpc;

import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A JSON-RPC request id: a string or an integer, never null and never fractional. The two kinds
 * stay distinct ({@code "1"} is not {@code 1}) so that a reply carries exactly the id it answers.
 */
public sealed interface RequestId {

    JsonNode toJson();

    static RequestId of(String value) {
        return new Text(value);
    }

    static RequestId of(long value) {
        return new Number(value);
    }

    /** Reads an id from the wire; empty when the node is not a string or an integer that fits in a long. */
    static java.util.Optional<RequestId> fromJson(JsonNode node) {
        if (node == null) {
            return java.util.Optional.empty();
        }
        if (node.isString()) {
            return java.util.Optional.of(new Text(node.stringValue()));
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return java.util.Optional.of(new Number(node.longValue()));
        }
        return java.util.Optional.empty();
    }

    // equals and hashCode are written out: ids are map keys from the first message on, and a
    // record's generated ones are linked at their first call, which costs milliseconds at start-up.

    record Text(String value) implements RequestId {
        public Text {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Text t && value.equals(t.value);
        }

        @Override
        public int hashCode() {
            return value.hashCode();
        }

        @Override
        public JsonNode toJson() {
            return JsonNodeFactory.instance.stringNode(value);
        }

        @Override
        public String toString() {
            return '"' + value + '"';
        }
    }

    record Number(long value) implements RequestId {
        @Override
        public boolean equals(Object o) {
            return o instanceof Number n && value == n.value;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(value);
        }

        @Override
        public JsonNode toJson() {
            return JsonNodeFactory.instance.numberNode(value);
        }

        @Override
        public String toString() {
            return Long.toString(value);
        }
    }
}
