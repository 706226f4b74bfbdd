package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.testkit.GithubTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden wrap -- node server-everything} is a drop-in: the TypeScript SDK client and the
 * Inspector CLI see the same tools and the same successful results as without Warden, and safe
 * failures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WrapServerEverythingEndToEndTest {

    static final String SERVER = WardenClientWithServerEverythingTest.SERVER;
    /** A GitHub token in its documented shape (ghp_ and 36 random letters and digits), made for this run. */
    static final String GITHUB_TOKEN = GithubTokens.fresh();
    /**
     * Planted in the server's environment: its get-env tool returns the environment. The AWS
     * secret key has no shape of its own (40 base64 characters): only its variable's name says
     * what it is, and results are never redacted by a name.
     */
    static final Map<String, String> SECRETS = Map.of("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "GITHUB_TOKEN", GITHUB_TOKEN);

    Path dataDir;
    JsonNode direct;
    JsonNode wrapped;

    List<String> server() {
        return List.of(Processes.NODE, SERVER, "stdio");
    }

    List<String> wrappedServer() {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString(), "--"));
        command.addAll(server());
        return command;
    }

    JsonNode drive(List<String> serverCommand) throws Exception {
        List<String> command = new ArrayList<>(Processes.node("wrap-client.mjs"));
        command.addAll(serverCommand);
        Processes.Result result = Processes.run(command, SECRETS);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    @BeforeAll
    void drive() throws Exception {
        dataDir = Files.createTempDirectory("warden-wrap-everything");
        direct = drive(server());
        wrapped = drive(wrappedServer());
    }

    private static List<String> toolNames(JsonNode run) {
        return run.at("/listTools/value/tools").valueStream().map(t -> t.get("name").asString()).toList();
    }

    @Test
    void theClientSeesTheSameToolsWithTheSameDefinitions() {
        assertThat(toolNames(wrapped)).isEqualTo(toolNames(direct)).contains("echo", "get-sum");
        assertThat(wrapped.at("/listTools/value")).isEqualTo(direct.at("/listTools/value"));
        assertThat(wrapped.get("serverVersion")).isEqualTo(direct.get("serverVersion"));
    }

    @Test
    void successfulResultsAreTheSame() {
        assertThat(wrapped.get("echo")).isEqualTo(direct.get("echo"));
        assertThat(wrapped.get("sum")).isEqualTo(direct.get("sum"));
        assertThat(wrapped.get("progress")).isEqualTo(direct.get("progress"));
    }

    @Test
    void progressReachesTheClientAsTheServerReportedIt() {
        // Two steps: server-everything reports 1 of 2, then 2 of 2 just before its result. The
        // last report can lose a race with the result in the client (it stops listening once the
        // result is in), with or without Warden; seen without it in CI. So: the first report
        // arrives, and what arrives is the server's own reports, in order.
        List<JsonNode> steps = Json.mapper().readTree("[{\"progress\":1,\"total\":2},{\"progress\":2,\"total\":2}]")
                .valueStream().toList();
        for (JsonNode run : List.of(wrapped, direct)) {
            List<JsonNode> received = run.get("progressNotifications").valueStream().toList();
            assertThat(received).isNotEmpty();
            assertThat(steps.subList(0, Math.min(received.size(), steps.size()))).isEqualTo(received);
        }
    }

    @Test
    void aFailingCallIsSafeAndCarriesACodeAndARef() {
        JsonNode failure = wrapped.at("/badArguments/value");
        assertThat(failure.get("isError").asBoolean()).isTrue();
        JsonNode error = Json.mapper().readTree(failure.at("/content/0/text").asString()).get("error");
        assertThat(error.get("code").asString()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("ref").asString()).startsWith("ref_");
        assertThat(failure.toString()).doesNotContain("not-a-number-probe").doesNotContain("MCP error");
    }

    @Test
    void anUnknownToolAnsweredAsAToolResultStaysOneWithoutItsName() {
        // server-everything answers it with an isError result: so does wrap (never a protocol error).
        assertThat(direct.at("/unknownTool/value/isError").asBoolean()).isTrue();
        assertThat(direct.at("/unknownTool/value/content/0/text").asString()).contains("drop_tables_probe_tool");
        assertThat(wrapped.at("/unknownTool/ok").asBoolean()).isTrue();
        assertThat(wrapped.at("/unknownTool/value/isError").asBoolean()).isTrue();
        JsonNode error = Json.mapper().readTree(wrapped.at("/unknownTool/value/content/0/text").asString()).get("error");
        assertThat(error.get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(wrapped.get("unknownTool").toString()).doesNotContain("drop_tables_probe_tool");
    }

    @Test
    void aTokenInTheServersEnvironmentDumpIsRedactedOverItsSpanAndNothingElseChanges() {
        String directEnv = direct.at("/env/value/content/0/text").asString();
        String wrappedEnv = wrapped.at("/env/value/content/0/text").asString();
        assertThat(directEnv).as("the test plants the token").contains(GITHUB_TOKEN);
        assertThat(wrappedEnv).doesNotContain(GITHUB_TOKEN);
        // The launcher (a bash script starting a JVM) adds and updates variables of its own (PWD,
        // SHLVL, _); every other variable both runs share comes back as the server sent it, the
        // token alone replaced by its marker.
        JsonNode directVars = Json.mapper().readTree(directEnv);
        JsonNode wrappedVars = Json.mapper().readTree(wrappedEnv);
        assertThat(wrappedVars.path("GITHUB_TOKEN").asString()).isEqualTo("[redacted:github-token]");
        assertThat(wrappedVars.path("AWS_SECRET_ACCESS_KEY").asString())
                .as("a secret without a shape of its own is not redacted by its name")
                .isEqualTo(SECRETS.get("AWS_SECRET_ACCESS_KEY"));
        directVars.propertyNames().forEach(name -> {
            if (!List.of("GITHUB_TOKEN", "PWD", "OLDPWD", "SHLVL", "_").contains(name) && wrappedVars.has(name)) {
                assertThat(wrappedVars.get(name)).as(name).isEqualTo(directVars.get(name));
            }
        });
    }

    @Test
    void aResourceErrorTellsTheCallerWhichOfItsUrisIsMissing() {
        // What the caller sent may come back to it (issue 14): the URI it asked for names the fault.
        assertThat(direct.get("missingResource").toString()).contains("missing-probe");
        assertThat(wrapped.get("missingResource").toString()).contains("missing-probe");
        assertThat(wrapped.at("/missingResource/error/code").asInt()).isEqualTo(-32602);
        assertThat(wrapped.at("/missingResource/error/data/code").asString()).isEqualTo("NOT_FOUND");
    }

    @Test
    void cancellingACallReachesTheServerAndTheConnectionGoesOn() {
        assertThat(wrapped.at("/cancelled/ok").asBoolean()).isFalse();
        assertThat(wrapped.at("/afterCancel/value")).isEqualTo(direct.at("/afterCancel/value"));
    }

    @Test
    void theInspectorCliListsAndCallsTheSameThroughWarden() throws Exception {
        Processes.Result viaWarden = Processes.run(Processes.inspectorFor(wrappedServer(), "--method", "tools/list"));
        Processes.Result plain = Processes.run(Processes.inspectorFor(server(), "--method", "tools/list"));
        assertThat(viaWarden.exitCode()).as(viaWarden.stderr()).isZero();
        assertThat(Json.mapper().readTree(viaWarden.stdout())).isEqualTo(Json.mapper().readTree(plain.stdout()));
        Processes.Result echo = Processes.run(Processes.inspectorFor(wrappedServer(), "--method", "tools/call",
                "--tool-name", "echo", "--tool-arg", "message=inspected"));
        assertThat(echo.exitCode()).as(echo.stderr()).isZero();
        assertThat(Json.mapper().readTree(echo.stdout()).at("/content/0/text").asString()).isEqualTo("Echo: inspected");
    }

    @Test
    void theServersCommandMayFollowWrapWithoutSeparatorOptionsAndAll() throws Exception {
        // As the Inspector passes `wrap npx -y pkg`: here the server's own option is node's --no-warnings.
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                dataDir.toString(), Processes.NODE, "--no-warnings", SERVER, "stdio"));

        Processes.Result viaWarden = Processes.run(Processes.inspectorFor(command, "--method", "tools/list"));
        Processes.Result plain = Processes.run(Processes.inspectorFor(server(), "--method", "tools/list"));

        assertThat(viaWarden.exitCode()).as(viaWarden.stderr()).isZero();
        assertThat(Json.mapper().readTree(viaWarden.stdout())).isEqualTo(Json.mapper().readTree(plain.stdout()));
    }
}
