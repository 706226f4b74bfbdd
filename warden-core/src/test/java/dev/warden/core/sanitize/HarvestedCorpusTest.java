package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's acceptance over the corpus harvested from real software, on the path {@code warden
 * sanitize} takes (one sanitizer, output not capped), told what the caller sent: no canary comes
 * out, the caller's identifiers and the actionable pointer and message survive, JSON stays JSON,
 * a benign text is unchanged. Each failure names the sample and what came out.
 */
class HarvestedCorpusTest {

    static final List<HarvestedCorpus.Sample> CORPUS = HarvestedCorpus.load();

    /**
     * What {@code warden sanitize --caller ARGS} prints for a text: a JSON document sanitized as the
     * structure it is (and, when it holds a well-known error shape, wrapped with the violations read
     * from it: {@code {"output": DOCUMENT, "violations": [{pointer, message}]}}, messages sanitized),
     * else the text sanitized.
     */
    static String sanitize(HarvestedCorpus.Sample sample) {
        String text = sample.text();
        Sanitizer sanitizer = Sanitizer.builder().maxOutputChars(Math.max(64, text.length() + 64)).build();
        CallerInput caller = CallerInput.of(sample.caller());
        java.util.Optional<tools.jackson.databind.JsonNode> tree = dev.warden.core.shape.EmbeddedJson.decode(text)
                .filter(tools.jackson.databind.JsonNode::isContainer);
        if (tree.isEmpty()) {
            String clean = sanitizer.sanitize(text, Policy.REDACT, ErrorCode.INTERNAL_ERROR, caller).output();
            java.util.Set<String> names = new java.util.HashSet<>();
            sample.caller().propertyNames().forEach(names::add);
            java.util.Optional<dev.warden.core.shape.Extracted> prose =
                    dev.warden.core.shape.ProseViolations.read(text, names);
            if (prose.isEmpty()) {
                return clean;
            }
            tools.jackson.databind.node.ObjectNode wrapped = dev.warden.core.json.Json.object().put("output", clean);
            tools.jackson.databind.node.ArrayNode violations = wrapped.putArray("violations");
            prose.get().violations().forEach(v -> violations.addObject().put("pointer", v.pointer()).put("message",
                    sanitizer.sanitize(v.message(), Policy.REDACT, ErrorCode.VALIDATION_ERROR, caller).output()));
            return wrapped.toString();
        }
        tools.jackson.databind.JsonNode clean = sanitizer.sanitizeJson(tree.get(), Policy.REDACT,
                ErrorCode.INTERNAL_ERROR, caller).value();
        java.util.Optional<dev.warden.core.shape.Extracted> extracted = SHAPES.read(tree.get())
                .filter(e -> !e.violations().isEmpty());
        if (extracted.isEmpty()) {
            return clean.toString();
        }
        tools.jackson.databind.node.ObjectNode wrapped = dev.warden.core.json.Json.object();
        wrapped.set("output", clean);
        tools.jackson.databind.node.ArrayNode violations = wrapped.putArray("violations");
        extracted.get().violations().forEach(v -> violations.addObject().put("pointer", v.pointer()).put("message",
                sanitizer.sanitize(v.message(), Policy.REDACT, ErrorCode.VALIDATION_ERROR, caller).output()));
        return wrapped.toString();
    }

    private static final dev.warden.core.shape.ErrorShapes SHAPES = dev.warden.core.shape.ErrorShapes.ofDefaults();

    private static List<String> failing(Predicate<HarvestedCorpus.Sample> applies,
            Predicate<HarvestedCorpus.Verdict> holds) {
        return CORPUS.stream().filter(applies).map(s -> {
            String out = sanitize(s);
            return holds.test(HarvestedCorpus.judge(s, out)) ? null : s.id() + " -> " + out;
        }).filter(java.util.Objects::nonNull).toList();
    }

    @Test
    void theCorpusHoldsRealFailuresOfManySourcesWithPlantedCanaries() {
        assertThat(CORPUS).hasSizeGreaterThanOrEqualTo(100);
        assertThat(CORPUS.stream().map(HarvestedCorpus.Sample::id).distinct().count()).isEqualTo(CORPUS.size());
        assertThat(CORPUS.stream().map(HarvestedCorpus.Sample::source).distinct().count()).isGreaterThanOrEqualTo(10);
        assertThat(CORPUS.stream().filter(s -> !s.canaries().isEmpty()).count()).isGreaterThanOrEqualTo(50);
        assertThat(CORPUS.stream().filter(s -> s.actionable().isPresent()).count()).isGreaterThanOrEqualTo(5);
        assertThat(CORPUS.stream().filter(HarvestedCorpus.Sample::benign).count()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void noPlantedCanaryComesOut() {
        assertThat(failing(s -> !s.canaries().isEmpty(), v -> v.leakedCanaries().isEmpty())).isEmpty();
    }

    @Test
    void everyIdentifierTheCallerSentSurvivesInTheDatabaseError() {
        assertThat(failing(s -> !s.keep().isEmpty(), v -> v.lostKeeps().isEmpty())).isEmpty();
    }

    @Test
    void everyStructuredValidationFailureKeepsItsPointerAndMessage() {
        assertThat(failing(s -> s.actionable().isPresent(), HarvestedCorpus.Verdict::actionableKept)).isEmpty();
    }

    @Test
    void whatWasJsonIsStillValidJson() {
        assertThat(failing(HarvestedCorpus.Sample::json, HarvestedCorpus.Verdict::validJson)).isEmpty();
    }

    @Test
    void aBenignResultComesOutUnchanged() {
        assertThat(failing(HarvestedCorpus.Sample::benign, HarvestedCorpus.Verdict::benignIdentical)).isEmpty();
    }

    @Test
    void printsTheHarvestedTable() {
        String table = SanitizerReport.harvestedTable(HarvestedCorpusTest::sanitize);
        System.out.print(table);
        assertThat(table).contains("| source | category |").contains("| total |");
    }
}
