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

    private static java.util.List<String> all(String property, String schema, String toolDescription) {
        return BaselineValues.all(Json.mapper().readTree(schema), property, toolDescription, true).stream()
                .map(JsonNode::toString).toList();
    }

    @Test
    void a_command_shaped_property_takes_no_value_from_its_description() {
        assertThat(all("command", "{\"type\":\"string\",\"description\":\"The shell command to run, e.g. ls\"}", ""))
                .isEmpty();
        assertThat(all("sql", "{\"type\":\"string\",\"description\":\"SQL statement, for example DELETE FROM logs\"}", ""))
                .isEmpty();
    }

    @Test
    void a_property_described_as_a_url_or_path_takes_no_value_from_prose() {
        assertThat(all("target", "{\"type\":\"string\",\"description\":\"The URL, e.g. intranet\"}", "")).isEmpty();
        assertThat(all("key", "{\"type\":\"string\",\"description\":\"The key file, e.g. id_rsa\"}", "")).isEmpty();
    }

    @Test
    void a_cue_gives_only_single_id_like_tokens() {
        assertThat(all("mode", "{\"type\":\"string\",\"description\":\"What to do, e.g. shut down now\"}", "")).isEmpty();
        assertThat(all("mode", "{\"type\":\"string\",\"description\":\"e.g. fast-lane\"}", ""))
                .containsExactly("\"fast-lane\"");
    }

    @Test
    void a_value_with_words_and_a_destructive_verb_is_refused_from_examples_and_lists() {
        assertThat(all("mode", "{\"type\":\"string\",\"examples\":[\"rm -rf build\",\"keep\"]}", ""))
                .containsExactly("\"keep\"");
        assertThat(all("mode", "{\"type\":\"string\",\"description\":\"Valid values: drop table logs, safe\"}", ""))
                .containsExactly("\"safe\"");
    }

    @Test
    void a_url_off_loopback_is_refused_and_a_loopback_one_kept() {
        assertThat(all("target", "{\"type\":\"string\",\"examples\":[\"http://169.254.169.254/latest\"]}", "")).isEmpty();
        assertThat(all("target", "{\"type\":\"string\",\"examples\":[\"http://127.0.0.1:8080/x\"]}", ""))
                .containsExactly("\"http://127.0.0.1:8080/x\"");
    }

    @Test
    void a_path_outside_the_folders_the_tool_names_is_refused() {
        String schema = "{\"type\":\"string\",\"examples\":[\"~/.ssh/id_rsa\",\"../secrets\",\"/etc/shadow\","
                + "\"/srv/docs/a.md\",\"notes.md\"]}";
        assertThat(all("name", schema, "Reads a document under /srv/docs."))
                .containsExactly("\"/srv/docs/a.md\"", "\"notes.md\"");
    }

    @Test
    void listed_values_called_after_the_baseline_pass_the_same_guard() {
        JsonNode tool = Json.mapper().readTree("""
                {"name":"get_doc","description":"Available IDs: doc-1, delete all docs, http://10.0.0.1/x, doc-2.",
                 "inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}""");
        java.util.List<String> sent = generator.forTool(tool).stream()
                .filter(p -> p.kind() == Probe.Kind.VALID || p.kind() == Probe.Kind.LISTED_VALUE)
                .map(p -> p.params().path("arguments").path("id").asString()).toList();
        assertThat(sent).containsExactly("doc-1", "doc-2");
    }
}
