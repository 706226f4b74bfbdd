package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.ToolFailure;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Resources and prompts declared with the builders, as a client lists, reads and renders them. */
class ResourceAndPromptBuildersTest {

    private TestClient client;

    @BeforeEach
    void start() throws Exception {
        McpServer server = McpServer.builder("test", "1.0")
                .incidents(incident -> { })
                .resource(ResourceSpec.builder("notes://readme").name("readme").title("Read me")
                        .description("What the notes are").mimeType("text/markdown").size(5)
                        .text(variables -> "hello").build())
                .resource(ResourceSpec.builder("notes://logo").mimeType("image/png")
                        .blob(variables -> "PNG".getBytes(StandardCharsets.US_ASCII)).build())
                .resourceTemplate(ResourceTemplateSpec.builder("notes://users/{user}/notes/{id}").name("note")
                        .mimeType("text/plain")
                        .text(variables -> {
                            if (!variables.get("id").equals("1")) {
                                throw ToolFailure.notFound("No such note.");
                            }
                            return "note of " + variables.get("user");
                        }).build())
                .prompt(PromptSpec.builder("greet").title("Greet").description("Greets someone")
                        .argument("name", "Who to greet", true)
                        .argument("tone", false)
                        .text(arguments -> "Say hello to " + arguments.get("name")
                                + arguments.getOrDefault("tone", ""))
                        .build())
                .build();
        client = TestClient.initialized(server);
    }

    private static JsonNode array(String text) {
        return Json.mapper().readTree(text);
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void aResourceIsListedWithWhatItsBuilderSaid() throws Exception {
        JsonNode resources = client.request("resources/list", json("{}")).get("result").get("resources");
        assertThat(resources.get(0)).isEqualTo(json("""
                {"uri":"notes://readme","name":"readme","title":"Read me","description":"What the notes are",
                 "mimeType":"text/markdown","size":5}"""));
        assertThat(resources.get(1)).as("named after its URI").isEqualTo(json("""
                {"uri":"notes://logo","name":"notes://logo","mimeType":"image/png"}"""));
    }

    @Test
    void textIsReadAsOnePartWithTheMimeType() throws Exception {
        JsonNode contents = client.request("resources/read", json("{\"uri\":\"notes://readme\"}"))
                .get("result").get("contents");
        assertThat(contents).isEqualTo(array("""
                [{"uri":"notes://readme","mimeType":"text/markdown","text":"hello"}]"""));
    }

    @Test
    void bytesAreReadBase64Encoded() throws Exception {
        JsonNode contents = client.request("resources/read", json("{\"uri\":\"notes://logo\"}"))
                .get("result").get("contents");
        assertThat(contents).isEqualTo(array("""
                [{"uri":"notes://logo","mimeType":"image/png","blob":"UE5H"}]"""));
    }

    @Test
    void aTemplateIsListedAndReadWithItsVariables() throws Exception {
        assertThat(client.request("resources/templates/list", json("{}")).get("result").get("resourceTemplates"))
                .isEqualTo(array("""
                        [{"uriTemplate":"notes://users/{user}/notes/{id}","name":"note","mimeType":"text/plain"}]"""));
        JsonNode contents = client.request("resources/read", json("{\"uri\":\"notes://users/ada/notes/1\"}"))
                .get("result").get("contents");
        assertThat(contents).isEqualTo(array("""
                [{"uri":"notes://users/ada/notes/1","mimeType":"text/plain","text":"note of ada"}]"""));
        String raw = client.requestRaw("resources/read", json("{\"uri\":\"notes://users/ada/notes/2\"}"));
        assertThat(json(raw).get("error").get("code").asInt()).as("resource not found").isEqualTo(-32002);
    }

    @Test
    void aPromptIsListedWithItsArgumentsAndRendersOneUserMessage() throws Exception {
        assertThat(client.request("prompts/list", json("{}")).get("result").get("prompts")).isEqualTo(array("""
                [{"name":"greet","title":"Greet","description":"Greets someone","arguments":[
                  {"name":"name","description":"Who to greet","required":true},
                  {"name":"tone","required":false}]}]"""));
        JsonNode result = client.request("prompts/get",
                json("{\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\",\"tone\":\"!\"}}")).get("result");
        assertThat(result).isEqualTo(json("""
                {"messages":[{"role":"user","content":{"type":"text","text":"Say hello to Ada!"}}]}"""));
        JsonNode error = client.request("prompts/get", json("{\"name\":\"greet\",\"arguments\":{}}")).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void theBuildersMakeTheRecordsTheWireFormsWould() {
        ResourceSpec built = ResourceSpec.builder("notes://a").name("a").mimeType("text/plain")
                .reader((uri, variables) -> List.of()).build();
        assertThat(built.resource()).isEqualTo(new Resources.Resource("notes://a", "a", Optional.empty(),
                Optional.empty(), Optional.of("text/plain"), OptionalLong.empty()));
        assertThat(ResourceTemplateSpec.builder("notes://{id}").text(variables -> "").build().template())
                .isEqualTo(new Resources.Template("notes://{id}", "notes://{id}", Optional.empty(), Optional.empty(),
                        Optional.empty()));
        assertThat(PromptSpec.builder("p").argument("x", "the x", true).text(arguments -> "").build().prompt())
                .isEqualTo(new Prompts.Prompt("p", Optional.empty(), Optional.empty(),
                        List.of(new Prompts.Argument("x", Optional.of("the x"), true))));
    }

    @Test
    void aBuilderMissingItsBodyOrDeclaringTwiceFailsNamingIt() {
        assertThatThrownBy(() -> ResourceSpec.builder("notes://a").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("notes://a");
        assertThatThrownBy(() -> ResourceTemplateSpec.builder("notes://{id").text(variables -> "").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("notes://{id");
        assertThatThrownBy(() -> PromptSpec.builder("p").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("prompt p");
        assertThatThrownBy(() -> PromptSpec.builder("p").argument("x", true).argument("x", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("argument x twice");
    }
}
