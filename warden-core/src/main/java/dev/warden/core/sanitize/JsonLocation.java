package dev.warden.core.sanitize;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where a string is in a JSON value: a chain of member names and array indexes up to the root, and,
 * for the root of JSON decoded from a string, the location of that string. Built while walking, one
 * link per value, so a finding costs no copy of its path however deep or long-named; the pointers are
 * spelled out only when asked for.
 */
public final class JsonLocation {

    private static final JsonLocation ROOT = new JsonLocation(null, null, -1, null);

    private final JsonLocation parent;
    private final String name;
    private final int index;
    /** For the root of decoded JSON: the string it was decoded from; else null. */
    private final JsonLocation encodedIn;

    private JsonLocation(JsonLocation parent, String name, int index, JsonLocation encodedIn) {
        this.parent = parent;
        this.name = name;
        this.index = index;
        this.encodedIn = encodedIn;
    }

    /** The root of the value that was sanitized. */
    static JsonLocation root() {
        return ROOT;
    }

    JsonLocation member(String memberName) {
        return new JsonLocation(this, memberName, -1, null);
    }

    /** The member name this location is the value of, if it is one. */
    java.util.Optional<String> memberName() {
        return java.util.Optional.ofNullable(name);
    }

    JsonLocation item(int itemIndex) {
        return new JsonLocation(this, null, itemIndex, null);
    }

    /** The root of JSON decoded from the string here. */
    JsonLocation decoded() {
        return new JsonLocation(null, null, -1, this);
    }

    /**
     * One JSON Pointer (RFC 6901) per level of encoding, the outermost first: the first into the value
     * that was sanitized, each next into the JSON decoded from the string the previous designates.
     */
    public List<String> pointers() {
        List<String> out = new ArrayList<>(2);
        JsonLocation level = this;
        while (level != null) {
            List<JsonLocation> links = new ArrayList<>();
            JsonLocation at = level;
            while (at.parent != null) {
                links.add(at);
                at = at.parent;
            }
            Collections.reverse(links);
            StringBuilder sb = new StringBuilder();
            for (JsonLocation link : links) {
                sb.append('/');
                if (link.name == null) {
                    sb.append(link.index);
                } else {
                    escape(link.name, sb);
                }
            }
            out.add(sb.toString());
            level = at.encodedIn;
        }
        Collections.reverse(out);
        return List.copyOf(out);
    }

    /** The pointer into the value that was sanitized (the outermost level). */
    public String pointer() {
        return pointers().getFirst();
    }

    /** Whether this is inside a string that held encoded JSON. */
    public boolean embedded() {
        JsonLocation at = this;
        while (at.parent != null) {
            at = at.parent;
        }
        return at.encodedIn != null;
    }

    private static void escape(String segment, StringBuilder sb) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '~') {
                sb.append("~0");
            } else if (c == '/') {
                sb.append("~1");
            } else {
                sb.append(c);
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JsonLocation other && pointers().equals(other.pointers());
    }

    @Override
    public int hashCode() {
        return pointers().hashCode();
    }

    @Override
    public String toString() {
        return String.join(" -> ", pointers());
    }
}
