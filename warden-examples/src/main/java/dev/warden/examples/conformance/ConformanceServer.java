package dev.warden.examples.conformance;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import dev.warden.server.CompletionHandler;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance fixture: a server built with the Warden SDK offering what the official
 * conformance suite's reference "everything" server offers (tools {@code test_simple_text} …
 * {@code test_elicitation_sep1330_enums}, resources under {@code test://}, prompts
 * {@code test_simple_prompt} …), so that {@code @modelcontextprotocol/conformance server} can
 * check Warden end to end. {@code test_error_handling} fails the Warden way: an {@code isError}
 * result with a code and a ref, never the exception's text.
 */
public final class ConformanceServer {

    /** A 1x1 red PNG. */
    static final String IMAGE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    /** A minimal WAV file. */
    static final String AUDIO_WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

    private ConformanceServer() {
    }

    public static McpServer create(IncidentSink incidents, int maxMessageBytes) {
        McpServer.Builder b = McpServer.builder("warden-conformance-server", "1.0.0")
                .title("Warden conformance fixture")
                .incidents(incidents)
                .maxMessageBytes(maxMessageBytes)
                .resourceSubscriptions(true)
                .completion(completion());
        tools().forEach(b::tool);
        resources().forEach(spec -> b.resource(spec.resource(), spec.reader()));
        templates().forEach(spec -> b.resourceTemplate(spec.template(), spec.reader()));
        prompts().forEach(b::prompt);
        return b.build();
    }

    /** The fixture's tools, for a server assembled elsewhere (the Spring Boot sample's beans). */
    public static List<ToolSpec> tools() {
        return ConformanceTools.all();
    }

    /** What the fixture completes: nothing, with a total of 0. */
    public static CompletionHandler completion() {
        return params -> new Completion.Values(List.of(), OptionalInt.of(0), false);
    }

    /** The fixture's resources with a fixed URI. */
    public static List<ResourceSpec> resources() {
        return List.of(
                new ResourceSpec(resource("test://static-text", "static-text", "Static Text Resource",
                        "A static text resource for testing", "text/plain"),
                        (uri, vars) -> List.of(new Resources.TextContents(uri, Optional.of("text/plain"),
                                "This is the content of the static text resource."))),
                new ResourceSpec(resource("test://static-binary", "static-binary", "Static Binary Resource",
                        "A static binary resource (image) for testing", "image/png"),
                        (uri, vars) -> List.of(new Resources.BlobContents(uri, Optional.of("image/png"), IMAGE_PNG))),
                new ResourceSpec(resource("test://watched-resource", "watched-resource", "Watched Resource",
                        "A resource clients may subscribe to", "text/plain"),
                        (uri, vars) -> List.of(new Resources.TextContents(uri, Optional.of("text/plain"),
                                "Watched resource content"))));
    }

    /** The fixture's resource template. */
    public static List<ResourceTemplateSpec> templates() {
        return List.of(ResourceTemplateSpec.of(new Resources.Template("test://template/{id}/data", "template",
                        Optional.of("Resource Template"), Optional.of("A resource template with parameter substitution"),
                        Optional.of("application/json")),
                (uri, vars) -> {
                    ObjectNode data = Json.object();
                    data.put("id", vars.get("id"));
                    data.put("templateTest", true);
                    data.put("data", "Data for ID: " + vars.get("id"));
                    return List.of(new Resources.TextContents(uri, Optional.of("application/json"), data.toString()));
                }));
    }

    private static Resources.Resource resource(String uri, String name, String title, String description,
                                               String mimeType) {
        return new Resources.Resource(uri, name, Optional.of(title), Optional.of(description), Optional.of(mimeType),
                OptionalLong.empty());
    }

    /** The fixture's prompts. */
    public static List<PromptSpec> prompts() {
        return List.of(new PromptSpec(prompt("test_simple_prompt", "Simple Test Prompt", "A simple prompt without arguments",
                List.of()), args -> result(user(Content.text("This is a simple prompt for testing.")))),
                new PromptSpec(prompt("test_prompt_with_arguments", "Prompt With Arguments",
                "A prompt with required arguments", List.of(
                        new Prompts.Argument("arg1", Optional.of("First test argument"), true),
                        new Prompts.Argument("arg2", Optional.of("Second test argument"), true))),
                args -> result(user(Content.text("Prompt with arguments: arg1='" + args.get("arg1") + "', arg2='"
                        + args.get("arg2") + "'")))),
                new PromptSpec(prompt("test_prompt_with_embedded_resource", "Prompt With Embedded Resource",
                "A prompt that includes an embedded resource", List.of(
                        new Prompts.Argument("resourceUri", Optional.of("URI of the resource to embed"), true))),
                args -> result(
                        user(new Content.EmbeddedResource(new Resources.TextContents(args.get("resourceUri"),
                                Optional.of("text/plain"), "Embedded resource content for testing."), Optional.empty())),
                        user(Content.text("Please process the embedded resource above.")))),
                new PromptSpec(prompt("test_prompt_with_image", "Prompt With Image",
                "A prompt that includes image content", List.of()),
                args -> result(user(new Content.Image(IMAGE_PNG, "image/png", Optional.empty())),
                        user(Content.text("Please analyze the image above.")))),
                new PromptSpec(prompt("test_input_required_result_prompt", "Prompt Needing Input",
                "Asks the user for context (2026-07-28: an input-required result) before it renders", List.of()),
                (args, input) -> {
                    ObjectNode answer = input.input("context", "elicitation/create",
                            ConformanceTools.elicit("What context should the prompt use?", "context"));
                    return result(user(Content.text("Context: " + answer.path("content").path("context").asString(""))));
                }));
    }

    private static Prompts.Prompt prompt(String name, String title, String description, List<Prompts.Argument> args) {
        return new Prompts.Prompt(name, Optional.of(title), Optional.of(description), args);
    }

    private static Prompts.Message user(Content content) {
        return new Prompts.Message(Prompts.Role.USER, content);
    }

    private static Prompts.GetResult result(Prompts.Message... messages) {
        return new Prompts.GetResult(Optional.empty(), List.of(messages));
    }
}
