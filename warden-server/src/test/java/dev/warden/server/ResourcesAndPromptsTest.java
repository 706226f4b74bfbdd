package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ResourcesAndPromptsTest {

    private TestClient client;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("test", "1.0")
                .incidents(incident -> { })
                .resource(new Resources.Resource("notes://readme", "readme", Optional.empty(), Optional.empty(),
                                Optional.of("text/plain"), OptionalLong.empty()),
                        (uri, vars) -> List.of(new Resources.TextContents(uri, Optional.of("text/plain"), "hello")))
                .resource(new Resources.Resource("notes://broken", "broken", Optional.empty(), Optional.empty(),
                                Optional.empty(), OptionalLong.empty()),
                        (uri, vars) -> {
                            throw new java.io.IOException("/data/notes/broken.txt: Input/output error");
                        })
                .resourceTemplate(new Resources.Template("notes://users/{user}/notes/{id}", "note", Optional.empty(),
                                Optional.empty(), Optional.of("text/plain")),
                        (uri, vars) -> {
                            if (!vars.get("id").equals("1")) {
                                throw ToolFailure.notFound("No such note.");
                            }
                            return List.of(new Resources.TextContents(uri, Optional.empty(),
                                    "note of " + vars.get("user")));
                        })
                .prompt(new PromptSpec(new Prompts.Prompt("greet", Optional.empty(), Optional.empty(),
                        List.of(new Prompts.Argument("name", Optional.empty(), true))),
                        args -> new Prompts.GetResult(Optional.empty(), List.of(new Prompts.Message(
                                Prompts.Role.USER, Content.text("Say hello to " + args.get("name"))))))).build();
        client = TestClient.initialized(server);
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void listsResourcesAndTemplates() throws Exception {
        assertThat(client.request("resources/list", json("{}")).get("result").get("resources").size()).isEqualTo(2);
        assertThat(client.request("resources/templates/list", json("{}")).get("result").get("resourceTemplates")
                .get(0).get("uriTemplate").stringValue()).isEqualTo("notes://users/{user}/notes/{id}");
    }

    @Test
    void readsAFixedResource() throws Exception {
        JsonNode contents = client.request("resources/read", json("{\"uri\":\"notes://readme\"}"))
                .get("result").get("contents").get(0);
        assertThat(contents.get("text").stringValue()).isEqualTo("hello");
        assertThat(contents.get("uri").stringValue()).isEqualTo("notes://readme");
    }

    @Test
    void readsThroughATemplateWithItsVariables() throws Exception {
        JsonNode contents = client.request("resources/read", json("{\"uri\":\"notes://users/ada/notes/1\"}"))
                .get("result").get("contents").get(0);
        assertThat(contents.get("text").stringValue()).isEqualTo("note of ada");
    }

    @Test
    void anUnknownResourceIsTheVersionsResourceNotFoundCodeWithoutTheUri() throws Exception {
        String raw = client.requestRaw("resources/read", json("{\"uri\":\"file:///etc/shadow_probe\"}"));
        JsonNode error = json(raw).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32002);
        assertThat(error.get("message").stringValue()).isEqualTo("Resource not found");
        assertThat(raw).doesNotContain("shadow_probe");
    }

    @Test
    void aReaderThatFindsNothingIsResourceNotFound() throws Exception {
        String raw = client.requestRaw("resources/read", json("{\"uri\":\"notes://users/ada/notes/2\"}"));
        assertThat(json(raw).get("error").get("code").asInt()).isEqualTo(-32002);
        assertThat(raw).doesNotContain("ada");
    }

    @Test
    void aCrashingReaderIsAnInternalErrorWithARefOnly() throws Exception {
        String raw = client.requestRaw("resources/read", json("{\"uri\":\"notes://broken\"}"));
        JsonNode error = json(raw).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32603);
        assertThat(error.get("data").get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(raw).doesNotContain("/data/notes").doesNotContain("IOException");
    }

    @Test
    void aPromptRendersWithItsArguments() throws Exception {
        JsonNode result = client.request("prompts/get", json("{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}}"))
                .get("result");
        assertThat(result.get("messages").get(0).get("content").get("text").stringValue())
                .isEqualTo("Say hello to Ada");
        assertThat(result.get("messages").get(0).get("role").stringValue()).isEqualTo("user");
    }

    @Test
    void aMissingRequiredPromptArgumentIsInvalidParams() throws Exception {
        JsonNode error = client.request("prompts/get", json("{\"name\":\"greet\"}")).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32602);
        assertThat(error.get("message").stringValue()).contains("name");
    }

    @Test
    void anUnknownPromptIsInvalidParamsWithoutEcho() throws Exception {
        String raw = client.requestRaw("prompts/get", json("{\"name\":\"prompt_probe_x\"}"));
        assertThat(json(raw).get("error").get("code").asInt()).isEqualTo(-32602);
        assertThat(raw).doesNotContain("prompt_probe_x");
    }

    @Test
    void methodsOfAnAreaWithNothingRegisteredAreNotFound() throws Exception {
        McpServer bare = McpServer.builder("bare", "1").incidents(i -> { }).build();
        try (TestClient other = TestClient.initialized(bare)) {
            assertThat(other.request("tools/list", json("{}")).get("error").get("code").asInt()).isEqualTo(-32601);
        }
    }
}
