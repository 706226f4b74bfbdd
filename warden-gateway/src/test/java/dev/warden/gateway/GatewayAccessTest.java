package dev.warden.gateway;

import static dev.warden.gateway.AccessFixture.call;
import static dev.warden.gateway.AccessFixture.failure;
import static dev.warden.gateway.AccessFixture.names;
import static dev.warden.gateway.AccessFixture.params;
import static dev.warden.gateway.AccessFixture.tools;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-caller authorization: with {@code access.rules}, an item is visible and usable iff one rule
 * is true for the connection's caller; what is not is invisible, as a tool {@code tools.deny}
 * hides: absent from every list, and answered exactly as an unknown one.
 */
class GatewayAccessTest {

    @Test
    void withoutAccessRulesEveryCallerSeesEverything() {
        try (AccessFixture f = new AccessFixture(Optional.empty())) {
            McpClient alice = f.as(AsCaller.jwt("alice"));
            assertThat(tools(alice)).containsExactly("files__read", "files__write", "ops__echo", "ops__reset");
            assertThat(tools(f.anonymous())).hasSize(4);
        }
    }

    @Test
    void aDeniedToolIsNotListedAndCallingItIsAnsweredAsAnUnknownTool() {
        try (AccessFixture f = AccessFixture.withRules("mcp.kind == 'tool' && mcp.name == 'echo'")) {
            McpClient alice = f.as(AsCaller.jwt("alice"));
            assertThat(tools(alice)).containsExactly("ops__echo");
            assertThat(call(alice, "ops__echo").path("isError").asBoolean(false)).isFalse();

            String denied = failure(() -> call(alice, "ops__reset"));
            assertThat(denied).isNotEqualTo("answered").isEqualTo(failure(() -> call(alice, "ops__no_such_tool")));
            assertThat(failure(() -> alice.callTool("ops__reset", dev.warden.core.json.Json.object())))
                    .isEqualTo(denied);
        }
    }

    @Test
    void aDeniedResourceIsNotListedAndReadingItIsAnsweredAsAnUnknownOne() {
        try (AccessFixture f = AccessFixture.withRules("mcp.kind == 'tool'",
                "mcp.kind == 'resource' && !mcp.uri.startsWith('file:///secret/')")) {
            McpClient alice = f.as(AsCaller.jwt("alice"));
            assertThat(names(alice, "resources/list", "resources", "uri")).containsExactly("file:///public/a");
            assertThat(names(alice, "resources/templates/list", "resourceTemplates", "uriTemplate"))
                    .containsExactly("file:///docs/{name}");
            assertThat(alice.request("resources/read", params("uri", "file:///public/a")).toString())
                    .contains("the text of file:///public/a");

            String denied = failure(() -> alice.request("resources/read", params("uri", "file:///secret/b")));
            assertThat(denied).isNotEqualTo("answered")
                    .isEqualTo(failure(() -> alice.request("resources/read", params("uri", "file:///nowhere/c"))));
        }
    }

    @Test
    void aDeniedResourceTemplateIsNotListed() {
        try (AccessFixture f = AccessFixture.withRules("mcp.kind == 'resource' && mcp.uri.startsWith('file:///p')")) {
            McpClient alice = f.as(AsCaller.jwt("alice"));
            assertThat(names(alice, "resources/templates/list", "resourceTemplates", "uriTemplate")).isEmpty();
            assertThat(tools(alice)).isEmpty();
        }
    }

    @Test
    void aDeniedPromptIsNotListedAndGettingItIsAnsweredAsAnUnknownOne() {
        try (AccessFixture f = AccessFixture.withRules("mcp.kind == 'prompt' && mcp.name != 'confess'")) {
            McpClient alice = f.as(AsCaller.jwt("alice"));
            assertThat(names(alice, "prompts/list", "prompts", "name")).containsExactly("files__summarize");
            assertThat(alice.request("prompts/get", params("name", "files__summarize")).toString())
                    .contains("prompt summarize");

            String denied = failure(() -> alice.request("prompts/get", params("name", "files__confess")));
            assertThat(denied).isNotEqualTo("answered")
                    .isEqualTo(failure(() -> alice.request("prompts/get", params("name", "files__no_such"))));
        }
    }

    @Test
    void aRuleOnScopesShowsAdminToolsOnlyToCallersWithTheScope() {
        try (AccessFixture f = AccessFixture.withRules("mcp.name != 'reset' || 'mcp:admin' in caller.scopes")) {
            assertThat(tools(f.as(AsCaller.jwt("alice", "mcp:tools")))).doesNotContain("ops__reset").hasSize(3);
            assertThat(tools(f.as(AsCaller.jwt("root", "mcp:tools", "mcp:admin")))).contains("ops__reset").hasSize(4);
        }
    }

    @Test
    void aRuleOnClaimsReadsTheTokensOtherClaims() {
        try (AccessFixture f = AccessFixture.withRules("'ops' in caller.claims.groups && caller.claims.level >= 3")) {
            McpClient ops = f.as(AsCaller.jwt("olga", "client-1", Set.of(), Map.of("groups", List.of("ops"),
                    "level", 3)));
            McpClient staff = f.as(AsCaller.jwt("sam", "client-1", Set.of(), Map.of("groups", List.of("staff"),
                    "level", 9)));
            assertThat(tools(ops)).hasSize(4);
            assertThat(tools(staff)).isEmpty();
        }
    }

    @Test
    void aRuleOnTheUpstreamGivesACallerOneUpstreamOnly() {
        try (AccessFixture f = AccessFixture.withRules("caller.subject == 'alice' && mcp.upstream == 'files'",
                "caller.kind == 'API_KEY' && mcp.upstream == 'ops'")) {
            assertThat(tools(f.as(AsCaller.jwt("alice")))).containsExactly("files__read", "files__write");
            assertThat(tools(f.as(AsCaller.apiKey("ci-bot")))).containsExactly("ops__echo", "ops__reset");
            assertThat(tools(f.as(AsCaller.jwt("bob")))).isEmpty();
        }
    }

    @Test
    void aRuleThatFailsAtRunTimeDeniesAndTheOthersStillDecide() {
        try (AccessFixture f = AccessFixture.withRules("caller.claims.team == 'blue'", "mcp.name == 'echo'")) {
            McpClient noTeamClaim = f.as(AsCaller.jwt("alice"));
            assertThat(tools(noTeamClaim)).containsExactly("ops__echo");
            assertThat(failure(() -> call(noTeamClaim, "files__read")))
                    .isEqualTo(failure(() -> call(noTeamClaim, "files__no_such_tool")));
        }
    }

    @Test
    void anUnauthenticatedConnectionIsDeniedByRulesOnTheSubject() {
        try (AccessFixture f = AccessFixture.withRules("caller.authenticated && caller.subject != ''",
                "caller.subject == 'alice'")) {
            McpClient nobody = f.anonymous();
            assertThat(tools(nobody)).isEmpty();
            assertThat(names(nobody, "prompts/list", "prompts", "name")).isEmpty();
            assertThat(failure(() -> call(nobody, "ops__echo"))).isNotEqualTo("answered");
            assertThat(tools(f.as(AsCaller.apiKey("ci-bot")))).hasSize(4);
        }
    }
}
