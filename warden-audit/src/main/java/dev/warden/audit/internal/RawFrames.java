package dev.warden.audit.internal;

import java.util.List;

/**
 * Malformed JSON-RPC, written on the wire as it is: what a broken or hostile client sends. Each has
 * the ids its answer may carry (a frame whose id cannot be read is answered with a null id), and
 * whether an answer is owed: a well-formed request is owed exactly one; a frame the server cannot
 * read is owed a parse or invalid-request error by JSON-RPC, which many servers do not send, and that
 * alone is not reported.
 */
public final class RawFrames {

    /** One frame, what it is in words, and the ids its answer may carry ({@code "null"} for a null id). */
    public record Frame(String what, String text, List<String> answerIds, boolean answerOwed) {
    }

    /** The largest frame sent: bigger than most servers' limits, small enough to be cheap here. */
    public static final int OVERSIZED_CHARS = 4 * 1024 * 1024;

    private RawFrames() {
    }

    public static List<Frame> of(String marker) {
        String p = Wire.RAW_ID_PREFIX;
        return List.of(
                new Frame("a parse error (truncated JSON)",
                        "{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "1\",\"method\":\"ping\",\"params\":{\"x\":\"" + marker,
                        List.of("null", q(p + "1")), false),
                new Frame("an invalid request (method is a number)",
                        "{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "2\",\"method\":42}", List.of("null", q(p + "2")), false),
                new Frame("an id that is an object", "{\"jsonrpc\":\"2.0\",\"id\":{\"" + marker
                        + "\":1},\"method\":\"ping\"}", List.of("null"), false),
                new Frame("an id that is a boolean", "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
                        List.of("null", "true"), false),
                new Frame("a batch of two requests", "[{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "3\",\"method\":\"ping\"},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "4\",\"method\":\"" + marker + "/unknown\"}]",
                        List.of("null", q(p + "3"), q(p + "4")), false),
                new Frame("an unknown method", "{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "5\",\"method\":\"" + marker
                        + "/unknown\",\"params\":{}}", List.of(q(p + "5")), true),
                new Frame("an oversized message (4 MiB)", "{\"jsonrpc\":\"2.0\",\"id\":\"" + p + "6\",\"method\":\"ping\","
                        + "\"params\":{\"pad\":\"" + marker + "A".repeat(OVERSIZED_CHARS) + "\"}}",
                        List.of("null", q(p + "6")), false));
    }

    private static String q(String id) {
        return "\"" + id + "\"";
    }
}
