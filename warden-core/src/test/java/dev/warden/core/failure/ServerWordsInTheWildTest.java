package dev.warden.core.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Real servers' refusals from the untuned-servers suite and issue 31 (mcp-server-git, Playwright MCP
 * on Chromium, desktop-commander, the mysql driver), each read for the code its own words give.
 * Before, each fell through to the no-evidence code.
 */
class ServerWordsInTheWildTest {

    private static ErrorCode code(String text, Set<String> callerValues) {
        return Classifier.ofWords(text, callerValues, Set.of(), ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void aMessageThatOpensWithNoIsSomethingNotFound() {
        assertThat(code("No session found for PID 999999", Set.of("999999"))).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(code("Error: No booking bk-999.", Set.of("bk-999"))).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void aSelectorOrPathspecThatMatchesNothingIsNotFound() {
        assertThat(code("Error: \"#checkout-button\" does not match any elements.", Set.of("#checkout-button")))
                .isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(code("Error: Git checkout failed: Exit Code: 1\nStderr: error: pathspec 'no-such-branch' did not "
                + "match any file(s) known to git\n\nStdout: ", Set.of("no-such-branch"))).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void somethingAlreadyDoneIsAConflict() {
        assertThat(code("Room oslo is already booked on 2026-12-01 (morning).", Set.of("oslo", "2026-12-01")))
                .isEqualTo(ErrorCode.CONFLICT);
    }

    @Test
    void whatTheCallerMayNotDoIsPermissionDenied() {
        assertThat(code("Booking bk-501 belongs to another team; you may not cancel it.", Set.of("bk-501")))
                .isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(code("Error: Path traversal detected: attempts to escape the defined root directory.",
                Set.of("../../etc/passwd"))).isEqualTo(ErrorCode.PERMISSION_DENIED);
    }

    @Test
    void chromiumsNetworkErrorsAreTheNetworksAndACallersHostIsTheCallers() {
        String refused = "### Error\nError: browserBackend.callTool: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:39001/";
        assertThat(code(refused, Set.of())).isEqualTo(ErrorCode.UPSTREAM_ERROR);
        assertThat(code("Error: page.goto: net::ERR_NAME_NOT_RESOLVED at https://shop.example-typo.com/",
                Set.of("https://shop.example-typo.com/"))).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void aDatabaseRefusingTheServersOwnLoginIsTheServersDependencyFailing() {
        assertThat(code("Tool 'recount' execution failed: ER_ACCESS_DENIED_ERROR: Access denied for user "
                + "'stock_app'@'10.4.0.12' (using password: YES)", Set.of())).isEqualTo(ErrorCode.UPSTREAM_ERROR);
        assertThat(code("password authentication failed for user \"app\"", Set.of())).isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }

    @Test
    void aUrlTheCallerTypedThatChromiumCannotResolveIsTheCallers() {
        assertThat(code("### Error\nError: browserBackend.callTool: net::ERR_NAME_NOT_RESOLVED at https://shop home page",
                Set.of("shop home page"))).isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void theJdksAndSpringsNetworkFailuresAreTheServersDependencyFailing() {
        assertThat(code("Request to http://enrich.acme-data.internal/v1/companies/x failed: java.net.ConnectException",
                Set.of())).isEqualTo(ErrorCode.UPSTREAM_ERROR);
        assertThat(code("I/O error on POST request for \"http://127.0.0.1:39873/v3/mail/send\": null\nnull", Set.of()))
                .isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }

    @Test
    void nodesFetchFailedWithoutItsCauseIsTheNetworkFailing() {
        assertThat(code("{\"error\":{\"name\":\"TypeError\",\"message\":\"fetch failed\"}}", Set.of()))
                .isEqualTo(ErrorCode.UPSTREAM_ERROR);
    }
}
