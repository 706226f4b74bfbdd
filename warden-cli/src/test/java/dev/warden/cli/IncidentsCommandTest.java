package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.Incident;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What the operator reads from {@code warden incidents show} and {@code warden incidents list}. */
class IncidentsCommandTest {

    @TempDir
    Path data;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private Incident upstreamFailure(String original) {
        return Incident.ofText(Ref.random(), now, ErrorCode.UPSTREAM_ERROR, "tools/call", Optional.of("search"),
                Optional.of("github"), original, List.of());
    }

    private Incident refusal() {
        return new Incident(Ref.random(), now, ErrorCode.RATE_LIMITED, "tools/call", Optional.of("search"),
                Optional.of("github"), Optional.empty(), List.of(), List.of())
                .withReason("breaker open for tool search after 5 failures in 10 calls; until 12:00:30Z")
                .withArguments("{\"name\":\"search\",\"arguments\":{\"query\":\"rust\"}}");
    }

    private void stored(Incident... incidents) {
        try (FileIncidentStore store = FileIncidentStore.open(data.resolve("incidents"))) {
            for (Incident incident : incidents) {
                store.record(incident);
            }
        }
    }

    private String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine line = Warden.commandLine(args);
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(new StringWriter()));
        assertThat(line.execute(args)).isZero();
        return out.toString();
    }

    private String show(Incident incident) {
        return run("incidents", "show", "--data-dir", data.toString(), incident.ref().value());
    }

    private List<String> list() {
        return run("incidents", "list", "--data-dir", data.toString()).lines().toList();
    }

    @Test
    void showPrintsWhyTheCallWasRefused() {
        Incident incident = refusal();
        stored(incident);

        assertThat(show(incident)).contains(
                "reason:    breaker open for tool search after 5 failures in 10 calls; until 12:00:30Z");
    }

    @Test
    void showPrintsTheArgumentsAsIndentedJson() {
        Incident incident = refusal();
        stored(incident);

        assertThat(show(incident)).contains("arguments:\n  {\n    \"name\" : \"search\",")
                .contains("\"query\" : \"rust\"");
    }

    @Test
    void showPrintsTheToolEvenWhenTheClientWasNotTold() {
        Incident incident = new Incident(Ref.random(), now, ErrorCode.NOT_FOUND, "tools/call",
                Optional.of("no_such_tool"), Optional.empty(), Optional.empty(), List.of(), List.of())
                .withReason("unknown tool");
        stored(incident);

        assertThat(show(incident)).contains("tool:      no_such_tool");
    }

    @Test
    void showDoesNotPassEscapeSequencesToTheTerminal() {
        Incident incident = upstreamFailure("failed \u001b[2J\u001b]0;owned\u0007 here\nsecond line");
        stored(incident);

        assertThat(show(incident)).doesNotContain("\u001b").doesNotContain("\u0007")
                .contains("  failed \\x1b[2J\\x1b]0;owned\\x07 here\n  second line");
    }

    @Test
    void listShowsTimeRefCodeUpstreamMethodAndTool() {
        Incident incident = upstreamFailure("rate limit exceeded");
        stored(incident);

        assertThat(list()).singleElement().asString()
                .startsWith(now + "  " + incident.ref() + "  UPSTREAM_ERROR    github       tools/call search")
                .endsWith("rate limit exceeded");
    }

    @Test
    void listShowsTheMessageOfAJsonOriginalNotItsFirstLine() {
        stored(upstreamFailure("""
                {
                  "error": {
                    "code": 404,
                    "message": "Repository   not\\nfound"
                  }
                }"""));

        assertThat(list()).singleElement().asString().endsWith(" Repository not found");
    }

    @Test
    void listShowsTheFirstLineOfAPlainOriginal() {
        stored(upstreamFailure("\nError: ENOENT: no such file\n    at Object.openSync (node:fs:573:18)"));

        assertThat(list()).singleElement().asString().endsWith(" Error: ENOENT: no such file");
    }

    @Test
    void listShowsTheReasonOfARefusal() {
        stored(refusal());

        assertThat(list()).singleElement().asString()
                .endsWith(" breaker open for tool search after 5 failures in 10 calls; until 12:00:30Z");
    }

    @Test
    void listShowsTheExceptionOfALocalFailureWithoutAReason() {
        stored(new Incident(Ref.random(), now, ErrorCode.INTERNAL_ERROR, "tools/call", Optional.empty(),
                Incident.chainOf(new IllegalStateException("pool exhausted"))));

        assertThat(list()).singleElement().asString().endsWith(" java.lang.IllegalStateException: pool exhausted");
    }

    @Test
    void listCutsALongGistToOneShortLine() {
        stored(upstreamFailure("word ".repeat(1000)));

        String line = list().get(0);
        String gist = line.substring(line.indexOf("tools/call search") + "tools/call search".length()).strip();
        assertThat(gist).hasSize(IncidentGist.MAX_CHARS).endsWith("…");
    }
}
