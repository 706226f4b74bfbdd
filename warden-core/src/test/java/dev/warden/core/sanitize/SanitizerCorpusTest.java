package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.detection.Category;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The corpus contract: nothing sensitive survives redact or strict; benign text survives redact unchanged. */
class SanitizerCorpusTest {

    private static final Sanitizer SANITIZER = Sanitizer.ofDefaults();

    static Stream<String> categories() {
        return Corpus.SENSITIVE_FILES.stream();
    }

    @ParameterizedTest
    @MethodSource("categories")
    void everyCategoryHasAtLeast200RealisticSamples(String category) {
        List<Corpus.Sample> samples = Corpus.load(category);
        assertThat(samples).hasSizeGreaterThanOrEqualTo(200);
        assertThat(samples.stream().map(Corpus.Sample::text).distinct().count()).isEqualTo(samples.size());
    }

    @ParameterizedTest
    @MethodSource("categories")
    void noSensitiveTokenSurvivesRedact(String category) {
        for (Corpus.Sample sample : Corpus.load(category)) {
            String output = SANITIZER.sanitize(sample.text(), Policy.REDACT).output();
            for (String sensitive : sample.sensitive()) {
                assertThat(output).as("redact of %s", sample.text()).doesNotContain(sensitive);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("categories")
    void noSensitiveTokenSurvivesStrict(String category) {
        for (Corpus.Sample sample : Corpus.load(category)) {
            String output = SANITIZER.sanitize(sample.text(), Policy.STRICT).output();
            for (String sensitive : sample.sensitive()) {
                assertThat(output).as("strict of %s", sample.text()).doesNotContain(sensitive);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("categories")
    void everySampleIsDetectedInItsOwnCategory(String category) {
        Category expected = Corpus.categoryOf(category);
        for (Corpus.Sample sample : Corpus.load(category)) {
            assertThat(SANITIZER.sanitize(sample.text(), Policy.REDACT).has(expected))
                    .as("%s detected in %s", expected, sample.text()).isTrue();
        }
    }

    @Test
    void atLeastAThousandBenignTextsSurviveRedactUnchanged() {
        List<Corpus.Sample> benign = Corpus.load("benign");
        assertThat(benign).hasSizeGreaterThanOrEqualTo(1000);
        for (Corpus.Sample sample : benign) {
            assertThat(SANITIZER.sanitize(sample.text(), Policy.REDACT).output()).isEqualTo(sample.text());
        }
    }

    @Test
    void printsTheReadmeTable() {
        String table = SanitizerReport.table(SANITIZER);
        System.out.print(table);
        assertThat(table).contains("| stack-trace |").contains("false-positive rate");
    }
}
