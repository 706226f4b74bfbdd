package dev.warden.core.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameHintsTest {

    private static FrameHints hints(String frame) {
        byte[] b = frame.getBytes(StandardCharsets.UTF_8);
        byte[] head = java.util.Arrays.copyOf(b, Math.min(b.length, FrameHints.EDGE));
        byte[] tail = java.util.Arrays.copyOfRange(b, Math.max(0, b.length - FrameHints.EDGE), b.length);
        return FrameHints.of(head, tail);
    }

    private static String big() {
        return "\"" + "x".repeat(10_000) + "\"";
    }

    @Test
    void anIdBeforeTheBulkIsReadFromTheHead() {
        FrameHints h = hints("{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"text\":" + big() + "}}");
        assertThat(h.id()).contains(RequestId.of(42));
        assertThat(h.hasMethod()).isFalse();
    }

    @Test
    void anIdAfterTheBulkIsReadFromTheTail() {
        FrameHints h = hints("{\"result\":{\"content\":[{\"type\":\"text\",\"text\":" + big() + "}]},\"jsonrpc\":\"2.0\",\"id\":\"req-7\"}");
        assertThat(h.id()).contains(RequestId.of("req-7"));
    }

    @Test
    void aRequestIsRecognizedByItsMethod() {
        FrameHints h = hints("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"a\":" + big() + "}}");
        assertThat(h.id()).contains(RequestId.of(3));
        assertThat(h.hasMethod()).isTrue();
    }

    @Test
    void anIdNestedInTheBodyIsNotTheFramesId() {
        FrameHints h = hints("{\"jsonrpc\":\"2.0\",\"result\":{\"id\":99,\"text\":" + big() + "}}");
        assertThat(h.id()).isEmpty();
    }

    @Test
    void escapedQuotesAndBracesInStringsDoNotConfuseEitherScan() {
        FrameHints h = hints("{\"jsonrpc\":\"2.0\",\"result\":{\"t\":\"}\\\"id\\\":1,{\"},\"pad\":" + big()
                + ",\"x\":\"\\\",\\\"id\\\":5\",\"id\":8}");
        assertThat(h.id()).contains(RequestId.of(8));
    }

    @Test
    void edgesWithNothingReadableGiveNothing() {
        assertThat(hints("x".repeat(3000)).id()).isEmpty();
        assertThat(FrameHints.of(new byte[0], new byte[0]).id()).isEmpty();
    }
}
