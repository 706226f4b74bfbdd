package dev.warden.core.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer: the codec never throws on any input, and whatever it decodes it can encode again and
 * decode to the same message. In CI this runs the seed corpus plus a short fuzzing run (see
 * .ci/run); set JAZZER_FUZZ=1 and raise -Djazzer.max_duration for a long run (docs/testing.md).
 */
class JsonRpcCodecFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void decodeNeverThrowsAndRoundTrips(byte[] input) {
        Decoded decoded = JsonRpcCodec.decode(input);
        assertThat(decoded).isNotNull();
        if (decoded instanceof Decoded.Message message) {
            String encoded = JsonRpcCodec.encode(message.message());
            Decoded again = JsonRpcCodec.decode(encoded);
            assertThat(again).isInstanceOf(Decoded.Message.class);
            assertThat(JsonRpcCodec.encode(((Decoded.Message) again).message())).isEqualTo(encoded);
        }
        if (decoded instanceof Decoded.Invalid invalid) {
            invalid.refusal().ifPresent(refusal -> assertThat(JsonRpcCodec.encode(new JsonRpcMessage.Failure(
                    refusal.id(), JsonRpcError.of(refusal.code(), refusal.message())))).isNotEmpty());
        }
    }
}
