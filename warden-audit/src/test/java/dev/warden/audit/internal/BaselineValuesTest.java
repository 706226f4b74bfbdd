package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The baseline call's values, taken from what the server says is valid. */
class BaselineValuesTest {

    private static final String MARKER = "wdnprobe-0a1b2c3d";
    private final ProbeGenerator generator = new ProbeGenerator(MARKER);

    /** The baseline arguments of a tool with {@code description} and the one required property {@code id}. */
    private String baseline(String description, String idSchema) {
        JsonNode tool = Json.mapper().readTree("{\"name\":\"get_doc\",\"description\":" + Json.tree(description)
                + ",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":" + idSchema + "},\"required\":[\"id\"]}}");
        return generator.forTool(tool).getFirst().params().path("arguments").path("id").toString();
    }

    @Test
    void a_list_of_ids_in_the_tools_description_gives_the_first_id() {
        assertThat(baseline("Fetches a document. Available IDs: doc-001, doc-002, doc-003.", "{\"type\":\"string\"}"))
                .isEqualTo("\"doc-001\"");
    }

    @Test
    void a_list_in_the_propertys_description_gives_its_first_item() {
        assertThat(baseline("", "{\"type\":\"string\",\"description\":\"The region, one of 'eu-west', 'us-east'\"}"))
                .isEqualTo("\"eu-west\"");
        assertThat(baseline("", "{\"type\":\"string\",\"description\":\"A ticker symbol (e.g. AAPL)\"}"))
                .isEqualTo("\"AAPL\"");
    }

    @Test
    void examples_come_before_a_description_and_a_number_list_gives_a_number() {
        assertThat(baseline("", "{\"type\":\"string\",\"examples\":[\"x-1\"],\"description\":\"e.g. y-2\"}"))
                .isEqualTo("\"x-1\"");
        assertThat(baseline("", "{\"type\":\"integer\",\"description\":\"Valid values: 7, 8\"}")).isEqualTo("7");
    }

    @Test
    void prose_is_no_list_and_leaves_the_marker() {
        assertThat(baseline("Returns one of the documents the user owns.", "{\"type\":\"string\"}"))
                .isEqualTo("\"" + MARKER + "\"");
        assertThat(baseline("", "{\"type\":\"string\",\"description\":\"The document id\"}"))
                .isEqualTo("\"" + MARKER + "\"");
    }

    @Test
    void a_list_the_schema_refuses_is_not_taken() {
        assertThat(baseline("Available IDs: a, b", "{\"type\":\"string\",\"minLength\":3}"))
                .isEqualTo("\"" + MARKER + "\"");
    }

    @Test
    void a_tools_list_labelled_for_another_property_is_not_used() {
        JsonNode tool = Json.mapper().readTree("""
                {"name":"t","description":"Available formats: pdf, html.",
                 "inputSchema":{"type":"object","properties":{"id":{"type":"string"},"format":{"type":"string"}},
                 "required":["id","format"]}}""");
        JsonNode args = generator.forTool(tool).getFirst().params().path("arguments");
        assertThat(args.path("format").asString()).isEqualTo("pdf");
        assertThat(args.path("id").asString()).isEqualTo(MARKER);
    }

    @Test
    void a_template_is_filled_from_its_description_and_a_prompt_gets_its_arguments() {
        ContentProbes reads = new ContentProbes(MARKER);
        JsonNode template = Json.mapper().readTree(
                "{\"uriTemplate\":\"docs://{id}/text\",\"description\":\"Known ids: intro, faq\"}");
        assertThat(reads.expand(template)).contains("docs://intro/text");
        JsonNode prompt = Json.mapper().readTree("{\"name\":\"summarise\",\"arguments\":[{\"name\":\"topic\","
                + "\"description\":\"e.g. billing\",\"required\":true}]}");
        Probe get = reads.of(java.util.List.of(), java.util.List.of(), java.util.List.of(prompt)).getFirst();
        assertThat(get.method()).isEqualTo("prompts/get");
        assertThat(get.params().path("arguments").path("topic").asString()).isEqualTo("billing");
    }
}
