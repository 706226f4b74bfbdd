package dev.warden.gateway.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The code of an upstream's failure tells the model what to do: its own mistakes are
 * VALIDATION_ERROR, NOT_FOUND, PERMISSION_DENIED or CONFLICT, never retryable; UPSTREAM_ERROR is
 * for a failing server. The texts are what real servers said (server-filesystem 2026.x,
 * mcp-fetch-server 1.1.2, server-postgres 0.6.2 on PostgreSQL, dbhub and mcp-sqlite on SQLite),
 * captured as they came ({@code WrapDifferentialEndToEndTest} keeps the transcripts).
 */
class FailureCodesTest {

    private final ErrorPipeline pipeline = new ErrorPipeline("up", Sanitizer.ofDefaults(), Policy.REDACT, true,
            IncidentSink.all(), Clock.systemUTC());

    private ErrorPipeline.Outcome failure(String text, ObjectNode arguments) {
        ObjectNode params = Json.object().put("name", "tool");
        params.set("arguments", arguments);
        return pipeline.failure("tools/call", Optional.of("tool"), text, ErrorCode.UPSTREAM_ERROR,
                ErrorPipeline.inputsOf(Optional.of(params)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "EISDIR: illegal operation on a directory, read                                        | VALIDATION_ERROR",
        "Could not find exact match for edit:\\nzzz                                              | NOT_FOUND",
        "Access denied - path outside allowed directories: /tmp/b/x.txt not in /tmp/a            | PERMISSION_DENIED",
        "ENOENT: no such file or directory, open '/tmp/a/nope.txt'                               | NOT_FOUND",
        "syntax error at end of input                                                           | VALIDATION_ERROR",
        "division by zero                                                                       | VALIDATION_ERROR",
        "MCP error -32603: [{\"code\":\"invalid_format\",\"format\":\"url\",\"path\":[\"url\"],\"message\":\"Invalid URL\"}] | VALIDATION_ERROR",
        "EEXIST: file already exists, mkdir '/tmp/a/dir'                                         | CONFLICT",
        "Cannot read properties of undefined (reading 'rows')                                   | UPSTREAM_ERROR",
        "{\"success\": false, \"error\": \"incomplete input\", \"code\": \"EXECUTION_ERROR\"}     | VALIDATION_ERROR",
        "Error: SQLITE_ERROR: incomplete input                                                  | VALIDATION_ERROR",
        "Failed to fetch http://docs.warden-e2e.invalid/missing: HTTP error: 404                | NOT_FOUND",
        "Fetcher blocked request to private address \"127.0.0.1\". This prevents SSRF attacks | PERMISSION_DENIED",
        "Fetcher blocked URL with disallowed protocol \"file:\". Only HTTP and HTTPS are allowed. | PERMISSION_DENIED",
        "Request failed with status code 503                                                    | UPSTREAM_ERROR",
        "Request failed with status code 429                                                    | RATE_LIMITED",
    })
    void aRealServersFailureGetsTheCodeOfWhatHappened(String text, ErrorCode code) {
        ErrorPipeline.Outcome outcome = failure(text.strip().replace("\\n", "\n"), Json.object());
        assertThat(outcome.code()).isEqualTo(code);
        assertThat(code.retryable()).isEqualTo(code == ErrorCode.UPSTREAM_ERROR || code == ErrorCode.RATE_LIMITED);
    }

    @Test
    void aWordTheCallerSentDoesNotChooseTheCode() {
        ObjectNode arguments = Json.object().put("note", "check the unique constraint on orders").put("id", "42");
        ErrorPipeline.Outcome outcome = failure("Failed to save 'check the unique constraint on orders': disk I/O error",
                arguments);
        assertThat(outcome.code()).isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }

    @Test
    void anIdentifierTheCallerQuotedDoesNotChooseTheCode() {
        ObjectNode arguments = Json.object().put("sql", "SELECT permission_denied FROM t");
        ErrorPipeline.Outcome outcome = failure("column \"permission_denied\" does not exist", arguments);
        assertThat(outcome.code()).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void theServersOwnWordsStillCountBesideTheCallers() {
        ObjectNode arguments = Json.object().put("path", "/data/report.csv");
        ErrorPipeline.Outcome outcome = failure("EACCES: permission denied, open '/data/report.csv'", arguments);
        assertThat(outcome.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
    }

    @Test
    void theArgumentsAnIncidentKeepsAreSanitizedWhereTheyStandAndBounded() {
        ObjectNode params = Json.object().put("name", "query");
        params.putObject("arguments").put("sql", "SELECT 1").put("dsn", "postgres://app:hunter2@db.internal:5432/x")
                .put("big", "y".repeat(10_000));
        String kept = ErrorPipeline.argumentsOf(Optional.of(params)).orElseThrow();
        assertThat(kept).contains("SELECT 1").doesNotContain("hunter2");
        assertThat(kept.length()).isLessThanOrEqualTo(dev.warden.core.incident.IncidentArguments.MAX_CHARS);
    }
}
