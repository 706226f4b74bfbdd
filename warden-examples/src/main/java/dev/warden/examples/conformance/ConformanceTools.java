package dev.warden.examples.conformance;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Resources;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** The fixture's tools, named and shaped as the conformance suite's scenarios expect. */
final class ConformanceTools {

    private ConformanceTools() {
    }

    static List<ToolSpec> all() {
        return List.of(
                ToolSpec.builder("test_simple_text").description("Tests simple text content response")
                        .handler(call -> ToolResult.text("This is a simple text response for testing.")).build(),
                ToolSpec.builder("test_image_content").description("Tests image content response")
                        .handler(call -> ToolResult.of(image())).build(),
                ToolSpec.builder("test_audio_content").description("Tests audio content response")
                        .handler(call -> ToolResult.of(new Content.Audio(ConformanceServer.AUDIO_WAV, "audio/wav",
                                Optional.empty()))).build(),
                ToolSpec.builder("test_embedded_resource").description("Tests embedded resource content response")
                        .handler(call -> ToolResult.of(embedded("test://embedded-resource", "text/plain",
                                "This is an embedded resource content."))).build(),
                ToolSpec.builder("test_multiple_content_types")
                        .description("Tests response with multiple content types (text, image, resource)")
                        .handler(call -> {
                            ObjectNode data = Json.object();
                            data.put("test", "data");
                            data.put("value", 123);
                            return ToolResult.of(Content.text("Multiple content types test:"), image(),
                                    embedded("test://mixed-content-resource", "application/json", data.toString()));
                        }).build(),
                ToolSpec.builder("test_tool_with_logging").description("Tests tool that emits log messages during execution")
                        .handler(call -> {
                            call.context().log(Logging.Level.INFO, "Tool execution started");
                            Thread.sleep(50);
                            call.context().log(Logging.Level.INFO, "Tool processing data");
                            Thread.sleep(50);
                            call.context().log(Logging.Level.INFO, "Tool execution completed");
                            return ToolResult.text("Tool with logging executed successfully");
                        }).build(),
                ToolSpec.builder("test_tool_with_progress").description("Tests tool that reports progress notifications")
                        .handler(call -> {
                            for (int step = 0; step <= 100; step += 50) {
                                call.context().progress(step, 100, "Completed step " + step + " of 100");
                                if (step < 100) {
                                    Thread.sleep(50);
                                }
                            }
                            return ToolResult.text("Progress reported");
                        }).build(),
                ToolSpec.builder("test_error_handling").description("Tests error response handling")
                        .handler(call -> {
                            // A bug, as far as the caller can tell: it sees INTERNAL_ERROR and a ref, not this text.
                            throw new IllegalStateException("This tool intentionally fails for testing");
                        }).build(),
                ToolSpec.builder("test_reconnection")
                        .description("Tests SSE stream disconnection and client reconnection (SEP-1699): the server "
                                + "closes the stream mid-call and sends the result after the client reconnects.")
                        .handler(call -> {
                            call.context().closeStream();
                            Thread.sleep(100);
                            return ToolResult.text("Reconnection test completed successfully. If you received this, "
                                    + "the client properly reconnected after stream closure.");
                        }).build(),
                ToolSpec.builder("test_sampling").description("Tests server-initiated sampling (LLM completion request)")
                        .inputSchema("{\"type\":\"object\",\"properties\":{\"prompt\":{\"type\":\"string\","
                                + "\"description\":\"The prompt to send to the LLM\"}},\"required\":[\"prompt\"]}")
                        .handler(call -> {
                            ObjectNode params = Json.object();
                            ObjectNode message = params.putArray("messages").addObject();
                            message.put("role", "user");
                            ObjectNode content = message.putObject("content");
                            content.put("type", "text");
                            content.put("text", call.arguments().get("prompt").stringValue());
                            params.put("maxTokens", 100);
                            ObjectNode result = call.context().requestClient("sampling/createMessage", params);
                            String text = result.path("content").path("text").asString("No response");
                            return ToolResult.text("LLM response: " + text);
                        }).build(),
                ToolSpec.builder("test_elicitation").description("Tests server-initiated elicitation (user input request)")
                        .inputSchema("{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\","
                                + "\"description\":\"The message to show the user\"}},\"required\":[\"message\"]}")
                        .handler(call -> {
                            ObjectNode params = Json.object();
                            params.put("message", call.arguments().get("message").stringValue());
                            params.set("requestedSchema", parse("{\"type\":\"object\",\"properties\":{\"response\":"
                                    + "{\"type\":\"string\",\"description\":\"User's response\"}},"
                                    + "\"required\":[\"response\"]}"));
                            return elicited("User response", call.context().requestClient("elicitation/create", params));
                        }).build(),
                ToolSpec.builder("test_elicitation_sep1034_defaults")
                        .description("Tests elicitation with default values per SEP-1034")
                        .handler(call -> {
                            ObjectNode params = Json.object();
                            params.put("message", "Please review and update the form fields with defaults");
                            params.set("requestedSchema", parse(SEP1034_SCHEMA));
                            return elicited("Elicitation completed",
                                    call.context().requestClient("elicitation/create", params));
                        }).build(),
                ToolSpec.builder("test_elicitation_sep1330_enums")
                        .description("Tests elicitation with enum schema improvements per SEP-1330")
                        .handler(call -> {
                            ObjectNode params = Json.object();
                            params.put("message", "Please select options from the enum fields");
                            params.set("requestedSchema", parse(SEP1330_SCHEMA));
                            return elicited("Elicitation completed",
                                    call.context().requestClient("elicitation/create", params));
                        }).build(),
                ToolSpec.builder("test_missing_capability")
                        .description("Needs the client's sampling capability (2026-07-28: -32021 without it)")
                        .handler(call -> {
                            ObjectNode params = Json.object();
                            ObjectNode message = params.putArray("messages").addObject();
                            message.put("role", "user");
                            message.putObject("content").put("type", "text").put("text", "Say hello.");
                            params.put("maxTokens", 10);
                            ObjectNode result = call.context().requestClient("sampling/createMessage", params);
                            return ToolResult.text("LLM response: " + result.path("content").path("text").asString(""));
                        }).build(),
                ToolSpec.builder("test_streaming_elicitation")
                        .description("Reports progress, then needs a confirmation: in 2026-07-28 the stream carries"
                                + " only notifications before the input-required result, never a request")
                        .handler(call -> {
                            call.context().progress(0, 1, "Preparing");
                            ObjectNode answer = call.context().input("confirm", "elicitation/create",
                                    elicit("Continue?", "confirm"));
                            call.context().progress(1, 1, "Done");
                            return ToolResult.text("Confirmed: " + answer.path("action").asString(""));
                        }).build(),
                ToolSpec.builder("test_custom_headers")
                        .description("Routes by region: region and priority travel as Mcp-Param-* headers over HTTP")
                        .inputSchema("""
                                {"type":"object","properties":{
                                  "region":{"type":"string","x-mcp-header":"Region"},
                                  "priority":{"type":"integer","x-mcp-header":"Priority"},
                                  "query":{"type":"string"}},
                                 "required":["region","query"]}""")
                        .handler(call -> ToolResult.text("Ran in " + call.arguments().path("region").asString("")))
                        .build(),
                ToolSpec.builder("test_logging_tool")
                        .description("Logs at info; in 2026-07-28 only a request that set _meta logLevel receives it")
                        .handler(call -> {
                            call.context().log(Logging.Level.INFO, "test_logging_tool ran");
                            return ToolResult.text("Logged.");
                        }).build(),
                ToolSpec.builder("test_input_required_result_elicitation")
                        .description("Asks the user's name through an input-required result (2026-07-28 MRTR)")
                        .handler(call -> {
                            ObjectNode answer = call.context().input("user_name", "elicitation/create",
                                    elicit("What is your name?", "name"));
                            return ToolResult.text("Hello, " + answer.path("content").path("name").asString("") + ".");
                        }).build(),
                ToolSpec.builder("test_input_required_result_sampling")
                        .description("Asks the client's model through an input-required result")
                        .handler(call -> {
                            ObjectNode answer = call.context().input("completion", "sampling/createMessage", sample());
                            return ToolResult.text("LLM response: " + answer.path("content").path("text").asString(""));
                        }).build(),
                ToolSpec.builder("test_input_required_result_list_roots")
                        .description("Asks the client's roots through an input-required result")
                        .handler(call -> {
                            ObjectNode answer = call.context().input("roots", "roots/list", Json.object());
                            return ToolResult.text("Roots: " + answer.path("roots").size());
                        }).build(),
                ToolSpec.builder("test_input_required_result_request_state")
                        .description("Asks for a confirmation; the round's state travels in requestState")
                        .handler(call -> {
                            call.context().input("confirm", "elicitation/create", elicit("Proceed?", "ok"));
                            return ToolResult.text("Confirmed.");
                        }).build(),
                ToolSpec.builder("test_input_required_result_tampered_state")
                        .description("Asks for a confirmation; an altered requestState is refused")
                        .handler(call -> {
                            call.context().input("confirm", "elicitation/create", elicit("Proceed?", "ok"));
                            return ToolResult.text("Confirmed.");
                        }).build(),
                ToolSpec.builder("test_input_required_result_multiple_inputs")
                        .description("Asks for an elicitation, a sampling and the roots in one round")
                        .handler(call -> {
                            java.util.Map<String, ObjectNode> requests = new java.util.LinkedHashMap<>();
                            requests.put("user_name", request("elicitation/create", elicit("What is your name?", "name")));
                            requests.put("completion", request("sampling/createMessage", sample()));
                            requests.put("roots", request("roots/list", Json.object()));
                            call.context().inputs(requests);
                            return ToolResult.text("All inputs received.");
                        }).build(),
                ToolSpec.builder("test_input_required_result_multi_round")
                        .description("Asks for a name, then (in a second round) for a colour")
                        .handler(call -> {
                            ObjectNode name = call.context().input("user_name", "elicitation/create",
                                    elicit("What is your name?", "name"));
                            ObjectNode color = call.context().input("favorite_color", "elicitation/create",
                                    elicit("What is your favourite colour?", "color"));
                            return ToolResult.text(name.path("content").path("name").asString("") + " likes "
                                    + color.path("content").path("color").asString("") + ".");
                        }).build(),
                ToolSpec.builder("test_input_required_result_capabilities")
                        .description("Asks only for the inputs the client declared it can give")
                        .handler(call -> {
                            ObjectNode declared = call.context().clientCapabilities().orElseGet(Json::object);
                            java.util.Map<String, ObjectNode> requests = new java.util.LinkedHashMap<>();
                            if (declared.has("elicitation")) {
                                requests.put("user_name", request("elicitation/create",
                                        elicit("What is your name?", "name")));
                            }
                            if (declared.has("sampling")) {
                                requests.put("completion", request("sampling/createMessage", sample()));
                            }
                            if (declared.has("roots")) {
                                requests.put("roots", request("roots/list", Json.object()));
                            }
                            call.context().inputs(requests);
                            return ToolResult.text("Received " + requests.size() + " input(s).");
                        }).build(),
                ToolSpec.builder("json_schema_2020_12_tool")
                        .description("Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)")
                        .inputSchema(JSON_SCHEMA_2020_12)
                        .handler(call -> ToolResult.text("JSON Schema 2020-12 tool called with: " + call.arguments()))
                        .build());
    }

    static ObjectNode elicit(String message, String field) {
        ObjectNode params = Json.object();
        params.put("mode", "form");
        params.put("message", message);
        ObjectNode schema = params.putObject("requestedSchema");
        schema.put("type", "object");
        schema.putObject("properties").putObject(field).put("type", "string");
        schema.putArray("required").add(field);
        return params;
    }

    private static ObjectNode sample() {
        ObjectNode params = Json.object();
        ObjectNode message = params.putArray("messages").addObject();
        message.put("role", "user");
        message.putObject("content").put("type", "text").put("text", "What is the capital of France?");
        params.put("maxTokens", 100);
        return params;
    }

    private static ObjectNode request(String method, ObjectNode params) {
        ObjectNode request = Json.object();
        request.put("method", method);
        request.set("params", params);
        return request;
    }

    private static ObjectNode parse(String json) {
        return (ObjectNode) Json.mapper().readTree(json);
    }

    private static Content image() {
        return new Content.Image(ConformanceServer.IMAGE_PNG, "image/png", Optional.empty());
    }

    private static Content embedded(String uri, String mimeType, String text) {
        return new Content.EmbeddedResource(new Resources.TextContents(uri, Optional.of(mimeType), text),
                Optional.empty());
    }

    private static ToolResult elicited(String label, ObjectNode result) {
        return ToolResult.text(label + ": action=" + result.path("action").asString("")
                + ", content=" + (result.has("content") ? result.get("content") : Json.object()));
    }

    /**
     * Every kind of 2020-12 keyword a tool schema may carry (composition, conditionals, $anchor):
     * the suite checks that tools/list hands them over untouched.
     */
    static final String JSON_SCHEMA_2020_12 = """
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
             "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                                   "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
             "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                            "phone": {"type": "string"}, "email": {"type": "string"}},
             "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
             "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
             "then": {"required": ["phone"]},
             "else": {"required": ["email"]},
             "additionalProperties": false}""";

    static final String SEP1034_SCHEMA = """
            {"type": "object", "properties": {
              "name": {"type": "string", "description": "User name", "default": "John Doe"},
              "age": {"type": "integer", "description": "User age", "default": 30},
              "score": {"type": "number", "description": "User score", "default": 95.5},
              "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"],
                         "default": "active"},
              "verified": {"type": "boolean", "description": "Verification status", "default": true}},
             "required": []}""";

    static final String SEP1330_SCHEMA = """
            {"type": "object", "properties": {
              "untitledSingle": {"type": "string", "description": "Select one option",
                                 "enum": ["option1", "option2", "option3"]},
              "titledSingle": {"type": "string", "description": "Select one option with titles",
                               "oneOf": [{"const": "value1", "title": "First Option"},
                                         {"const": "value2", "title": "Second Option"},
                                         {"const": "value3", "title": "Third Option"}]},
              "legacyEnum": {"type": "string", "description": "Select one option (legacy)",
                             "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
              "untitledMulti": {"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
                                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
              "titledMulti": {"type": "array", "description": "Select multiple options with titles", "minItems": 1,
                              "maxItems": 3, "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                                                 {"const": "value2", "title": "Second Choice"},
                                                                 {"const": "value3", "title": "Third Choice"}]}}},
             "required": []}""";
}
