package dev.warden.bench;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/** Decode plus re-encode of a typical tools/call request: the gateway's per-message cost. */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark extends AverageTimeBenchmark {

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
