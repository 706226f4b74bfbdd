package dev.warden.core.shape;

import dev.warden.core.failure.HttpStatuses;
import dev.warden.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/** Small, allocation-light reads of untrusted JSON shared by the shapes. */
final class Nodes {

    /** Array elements a shape looks at: a hostile array of a million items costs this many steps. */
    static final int MAX_ITEMS = 256;

    private Nodes() {
    }

    /** The member {@code key} of an object, or null (also when {@code node} is not an object). */
    static JsonNode member(JsonNode node, String key) {
        return node != null && node.isObject() ? node.get(key) : null;
    }

    /** A non-blank string member, or null. */
    static String text(JsonNode node, String key) {
        JsonNode v = member(node, key);
        return v != null && v.isString() && !v.stringValue().isBlank() ? v.stringValue() : null;
    }

    /** The first of {@code keys} that is a non-blank string member, or null. */
    static String firstText(JsonNode node, String... keys) {
        for (String key : keys) {
            String t = text(node, key);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** An array member, or null. */
    static JsonNode array(JsonNode node, String key) {
        JsonNode v = member(node, key);
        return v != null && v.isArray() ? v : null;
    }

    /** An object member, or null. */
    static JsonNode object(JsonNode node, String key) {
        JsonNode v = member(node, key);
        return v != null && v.isObject() ? v : null;
    }

    /**
     * The elements of {@code node}'s array {@code key}, of the first {@link #MAX_ITEMS}, that {@code test}
     * takes for its shape's (none when there is no such array).
     */
    static List<JsonNode> items(JsonNode node, String key, Predicate<JsonNode> test) {
        List<JsonNode> taken = new ArrayList<>();
        for (JsonNode e : items(array(node, key))) {
            if (test.test(e)) {
                taken.add(e);
            }
        }
        return taken;
    }

    /** At most {@link #MAX_ITEMS} elements of an array, as an {@code Iterable} without copying. */
    static Iterable<JsonNode> items(JsonNode array) {
        int n = array == null || !array.isArray() ? 0 : Math.min(array.size(), MAX_ITEMS);
        return () -> new java.util.Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public JsonNode next() {
                if (i >= n) {
                    throw new java.util.NoSuchElementException();
                }
                return array.get(i++);
            }
        };
    }

    /** An HTTP status given as a number or a numeric string ({@code 422}, {@code "422"}), or -1. */
    static int httpStatus(JsonNode v) {
        if (v == null) {
            return -1;
        }
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            int s = v.intValue();
            return s >= 100 && s <= 599 ? s : -1;
        }
        if (v.isString()) {
            String s = v.stringValue();
            if (s.length() == 3 && isDigits(s)) {
                return Integer.parseInt(s);
            }
        }
        return -1;
    }

    static Optional<ErrorCode> codeOfStatus(JsonNode v) {
        int s = httpStatus(v);
        return s < 0 ? Optional.empty() : HttpStatuses.code(s);
    }

    static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The text inside the first pair of single quotes ({@code "'name' is a required property"}), or null. */
    static String quoted(String message) {
        int open = message.indexOf('\'');
        int close = open < 0 ? -1 : message.indexOf('\'', open + 1);
        return close > open + 1 ? message.substring(open + 1, close) : null;
    }
}
