package dev.warden.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.jsonrpc.JsonRpcError;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StdioTransportTest {

    private final List<String> frames = new CopyOnWriteArrayList<>();
    private final List<dev.warden.core.error.ProtocolException> errors = new CopyOnWriteArrayList<>();
    private final List<dev.warden.core.jsonrpc.FrameHints> oversized = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);

    private Transport.Listener listener() {
        return new Transport.Listener() {
            @Override
            public void onFrame(byte[] frame) {
                frames.add(new String(frame, StandardCharsets.UTF_8));
            }

            @Override
            public void onFrameError(dev.warden.core.error.ProtocolException error) {
                errors.add(error);
            }

            @Override
            public void onOversizedFrame(dev.warden.core.jsonrpc.FrameHints hints, dev.warden.core.error.ProtocolException error) {
                oversized.add(hints);
                errors.add(error);
            }

            @Override
            public void onClose() {
                closed.countDown();
            }
        };
    }

    private void readAll(InputStream in, int max) throws InterruptedException {
        StdioTransport transport = StdioTransport.of(in, new ByteArrayOutputStream(), max);
        transport.start(listener());
        assertThat(closed.await(20, TimeUnit.SECONDS)).as("EOF closes the transport").isTrue();
    }

    private static InputStream input(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void splitsNewlineDelimitedFramesAndStripsCarriageReturns() throws Exception {
        readAll(input("{\"a\":1}\n{\"b\":2}\r\n\n   \n{\"c\":3}"), 1024);
        assertThat(frames).containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":3}");
    }

    @Test
    void anOversizedLineIsOneErrorAndReadingGoesOn() throws Exception {
        String big = "{\"x\":\"" + "a".repeat(10_000) + "\"}";
        readAll(input("{\"first\":1}\n" + big + "\n{\"after\":1}\n"), 1024);
        assertThat(frames).containsExactly("{\"first\":1}", "{\"after\":1}");
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo(-32600);
            assertThat(e.getMessage()).contains("1024 bytes").doesNotContain("aaaa");
        });
    }

    @Test
    void anOversizedFrameKeepsItsIdFromEitherEndAcrossReadChunks() throws Exception {
        String body = "a".repeat(100_000); // spans many 8 KiB reads
        readAll(input("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"x\":\"" + body + "\"}}\n"
                + "{\"result\":{\"t\":\"" + body + "\"},\"jsonrpc\":\"2.0\",\"id\":8}\r\n"), 1024);
        assertThat(oversized).hasSize(2);
        assertThat(oversized.get(0).id()).contains(dev.warden.core.jsonrpc.RequestId.of(7));
        assertThat(oversized.get(0).hasMethod()).isTrue();
        assertThat(oversized.get(1).id()).contains(dev.warden.core.jsonrpc.RequestId.of(8));
        assertThat(oversized.get(1).hasMethod()).isFalse();
    }

    @Test
    void aFrameExactlyAtTheLimitIsAccepted() throws Exception {
        String exact = "\"" + "b".repeat(98) + "\"";
        assertThat(exact.length()).isEqualTo(100);
        readAll(input(exact + "\r\n"), 100);
        assertThat(frames).containsExactly(exact);
        assertThat(errors).isEmpty();
    }

    @Test
    void anOversizedLastLineWithoutNewlineIsReported() throws Exception {
        readAll(input("x".repeat(5000)), 1024);
        assertThat(frames).isEmpty();
        assertThat(errors).hasSize(1);
    }

    @Test
    void sendWritesOneLinePerFrame() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioTransport transport = StdioTransport.of(input(""), out);
        transport.send("{\"a\":1}");
        transport.send("{\"b\":2}");
        transport.close(); // frames are written by the writer thread; close waits for what is queued
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n{\"b\":2}\n");
    }

    @Test
    void sendAfterCloseFailsWithTransportClosed() {
        StdioTransport transport = StdioTransport.of(input(""), new ByteArrayOutputStream());
        transport.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> transport.send("{}"))
                .isInstanceOf(TransportClosedException.class);
    }
}
