package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Issue 31, Build 5, "measured where nobody tuned": the dev set of the untuned servers (real npm
 * servers and TypeScript frameworks no other test uses, {@code src/test/untuned/servers}), each run
 * directly and through {@code warden wrap} by the same real client, every failure judged by the
 * rules written before the first run ({@code src/test/untuned/RULES.md}). The held-out set is not run
 * here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UntunedServersEndToEndTest {

    static final Path UNTUNED = Path.of(System.getProperty("warden.untuned.dir", "src/test/untuned")).toAbsolutePath();
    /**
     * Floors for the share of judged failures with the right code and with the fix kept, over the dev
     * set: issue 31's acceptance, 97% each. Measured before its fixes: 37/56 and 55/56 (npm servers
     * only); after: 84/86 and 86/86 with the Java servers (docs/reference/untuned-servers.md).
     */
    static final double RIGHT_CODE_FLOOR = 0.97;
    static final double FIX_KEPT_FLOOR = 0.97;

    JsonNode report;
    String table;

    @BeforeAll
    void runTheDevSet() throws Exception {
        Path json = Files.createTempFile("untuned-report", ".json");
        Path out = Files.createTempFile("untuned-table", ".md");
        Path err = Files.createTempFile("untuned", ".err");
        ProcessBuilder builder = new ProcessBuilder(Processes.NODE, UNTUNED.resolve("runner.mjs").toString(),
                "--warden", Processes.LAUNCHER.toString(), "--json", json.toString())
                .directory(UNTUNED.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // The Java servers' ${java}: this JVM (>= 21), not whatever java comes first on the PATH.
        ProcessHandle.current().info().command().ifPresent(java -> builder.environment().put("UNTUNED_JAVA", java));
        Process process = builder.start();
        // A hang guard, not a speed assertion: the dev set takes a minute or two.
        if (!process.waitFor(15, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the untuned runner did not finish: " + Files.readString(err));
        }
        table = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(Files.size(json)).as("the runner wrote its report; it said: %s", Files.readString(err)).isPositive();
        System.out.println(table);
        report = Json.mapper().readTree(Files.readString(json, StandardCharsets.UTF_8));
    }

    private List<JsonNode> runs() {
        return report.get("runs").valueStream().toList();
    }

    private List<JsonNode> judged() {
        return runs().stream().flatMap(r -> r.get("steps").valueStream()).filter(s -> !s.get("kind").asString()
                .equals("ordinary")).toList();
    }

    @Test
    void everyServerOfTheDevSetRanItsWholeSessionAndEveryPremiseHeld() {
        assertThat(runs()).as("the dev set").hasSizeGreaterThanOrEqualTo(8);
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode run : runs()) {
            soft.assertThat(run.path("error").isMissingNode() || run.path("error").isNull())
                    .as("%s ran: %s", run.get("name"), run.path("error")).isTrue();
            for (JsonNode step : run.get("steps")) {
                soft.assertThat(step.get("premise").asBoolean()).as("%s / %s: the direct answer is as the session "
                        + "says (%s)", run.get("name"), step.get("label"), step.get("direct")).isTrue();
            }
        }
        soft.assertAll();
    }

    @Test
    void nothingOnlyTheServerKnowsReachesTheClientThroughWrap() {
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode run : runs()) {
            for (JsonNode step : run.get("steps")) {
                if (step.has("leaks")) {
                    soft.assertThat(step.get("leaks").valueStream().map(JsonNode::asString).toList())
                            .as("%s / %s; Warden sent: %s", run.get("name"), step.get("label"), step.get("wrapped"))
                            .isEmpty();
                }
            }
            soft.assertThat(run.path("otherLeaks").valueStream().toList()).as("%s, the repeat", run.get("name"))
                    .isEmpty();
        }
        soft.assertAll();
    }

    @Test
    void everyOrdinaryCallSucceedsThroughWrapWithTheDirectAnswer() {
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode run : runs()) {
            for (JsonNode step : run.get("steps")) {
                if (step.get("kind").asString().equals("ordinary")) {
                    soft.assertThat(step.get("identical").asBoolean()).as("%s / %s: directly %s, through wrap %s",
                            run.get("name"), step.get("label"), step.get("direct"), step.get("wrapped")).isTrue();
                }
            }
        }
        soft.assertAll();
    }

    @Test
    void twoHundredMistakesInARowPauseNothingAndTheGoodCallIsServed() {
        List<JsonNode> repeated = runs().stream().filter(r -> r.path("repeat").isObject()).toList();
        assertThat(repeated).as("sessions with a repeat").isNotEmpty();
        SoftAssertions soft = new SoftAssertions();
        for (JsonNode run : repeated) {
            JsonNode repeat = run.get("repeat");
            soft.assertThat(repeat.path("paused").asInt(-1)).as("%s: answers paused", run.get("name")).isZero();
            soft.assertThat(repeat.path("thenServed").asBoolean()).as("%s: the good call after them", run.get("name"))
                    .isTrue();
        }
        soft.assertAll();
    }

    @Test
    void aServerKilledMidCallIsPausedAndRecovers() {
        List<JsonNode> crashed = runs().stream().filter(r -> r.path("crash").isObject()).toList();
        assertThat(crashed).as("at least one server is crashed").isNotEmpty();
        for (JsonNode run : crashed) {
            JsonNode crash = run.get("crash");
            assertThat(crash.get("crashedRight").asBoolean()).as("%s: every killed call is a retryable "
                    + "UPSTREAM_ERROR: %s", run.get("name"), crash.get("attempts")).isTrue();
            assertThat(crash.get("pausedAfter").isNumber()).as("%s: paused after repeated kills: %s",
                    run.get("name"), crash.get("attempts")).isTrue();
            assertThat(crash.get("recovered").asBoolean()).as("%s: a call succeeds again", run.get("name")).isTrue();
        }
    }

    @Test
    void theShareOfRightCodesAndOfFixesKeptStaysAtOrAboveItsFloor() {
        List<JsonNode> judged = judged();
        long right = judged.stream().filter(s -> s.get("rightCode").asBoolean()).count();
        long kept = judged.stream().filter(s -> s.get("fixKept").asBoolean()).count();
        System.out.printf("untuned dev set: right code %d/%d, fix kept %d/%d%n", right, judged.size(), kept,
                judged.size());
        assertThat((double) right / judged.size()).as("right codes %d/%d; see the table:%n%s", right, judged.size(),
                table).isGreaterThanOrEqualTo(RIGHT_CODE_FLOOR);
        assertThat((double) kept / judged.size()).as("fixes kept %d/%d; see the table:%n%s", kept, judged.size(),
                table).isGreaterThanOrEqualTo(FIX_KEPT_FLOOR);
    }
}
