package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.warden.core.sanitize.detection.Finding;
import java.nio.charset.StandardCharsets;

/**
 * Jazzer: the sanitizer never throws, and its output is never longer than its bound, under every
 * policy. Hangs are caught by Jazzer's per-input timeout in fuzzing mode.
 */
class SanitizerFuzzTest {

    private static final Sanitizer SANITIZER = Sanitizer.builder().maxOutputChars(512).build();

    @FuzzTest(maxDuration = "60s")
    void neverThrowsAndStaysWithinItsBound(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        for (Policy policy : Policy.values()) {
            SanitizedText result = SANITIZER.sanitize(text, policy);
            if (policy == Policy.PASSTHROUGH) {
                assertThat(result.output()).isEqualTo(text);
            } else {
                assertThat(result.output().length()).isLessThanOrEqualTo(SANITIZER.maxOutputChars());
            }
            for (Finding f : result.findings()) {
                assertThat(f.end()).isLessThanOrEqualTo(text.length());
            }
        }
    }
}
