package dev.warden.bench;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Decode plus re-encode of a typical tools/call request: the gateway's per-message cost. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {

    private final byte[] request = ("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"create_user\",\"arguments\":{\"name\":\"Ada\",\"email\":\"ada@example.com\",\"role\":\"admin\","
            + "\"address\":{\"city\":\"London\",\"country\":\"GB\"}},\"_meta\":{\"progressToken\":7}}}")
            .getBytes(StandardCharsets.UTF_8);

    @Benchmark
    public String decodeAndEncode() {
        Decoded decoded = JsonRpcCodec.decode(request);
        return JsonRpcCodec.encode(((Decoded.Message) decoded).message());
    }
}
