package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The probes read from a tool's input schema. */
class ProbeGeneratorTest {

    private static final String MARKER = "wdnprobe-0a1b2c3d";
    private final ProbeGenerator generator = new ProbeGenerator(MARKER);

    private static JsonNode tool(String schema) {
        return Json.mapper().readTree("{\"name\":\"t\",\"inputSchema\":" + schema + "}");
    }

    private List<Probe> probes(String schema) {
        return generator.forTool(tool(schema));
    }

    @Test
    void the_baseline_comes_first_with_every_required_property_valid() {
        Probe first = probes("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"n\":{\"type\":"
                + "\"integer\",\"minimum\":3},\"mode\":{\"enum\":[\"r\",\"w\"]}},\"required\":[\"path\",\"n\",\"mode\"]}")
                .getFirst();

        assertThat(first.kind()).isEqualTo(Probe.Kind.VALID);
        assertThat(first.params().path("arguments").toString())
                .isEqualTo("{\"path\":\"" + MARKER + "\",\"n\":3,\"mode\":\"r\"}");
    }

    @Test
    void each_required_property_is_left_out_once() {
        List<Probe> probes = probes("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
                + "\"b\":{\"type\":\"string\"}},\"required\":[\"a\",\"b\"]}");

        assertThat(probes).filteredOn(p -> p.description().endsWith("missing"))
                .extracting(Probe::description)
                .containsExactly("required property 'a' missing", "required property 'b' missing");
        assertThat(probes).filteredOn(p -> p.description().equals("required property 'a' missing"))
                .allSatisfy(p -> assertThat(p.params().path("arguments").has("a")).isFalse());
    }

    @Test
    void numbers_go_out_of_range_enums_outside_and_strings_over_their_length() {
        List<Probe> probes = probes("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":1,"
                + "\"maximum\":10},\"mode\":{\"type\":\"string\",\"enum\":[\"r\"]},\"name\":{\"type\":\"string\","
                + "\"maxLength\":5}}}");

        assertThat(argument(probes, "property 'n' below its minimum", "n").asInt()).isZero();
        assertThat(argument(probes, "property 'n' above its maximum", "n").asInt()).isEqualTo(11);
        assertThat(argument(probes, "property 'mode' outside its enum", "mode").asString()).isEqualTo(MARKER);
        assertThat(argument(probes, "property 'name' over its maxLength", "name").asString()).hasSize(6);
        assertThat(argument(probes, "property 'n' of the wrong type", "n").isString()).isTrue();
        assertThat(argument(probes, "property 'name' of the wrong type", "name").isNumber()).isTrue();
    }

    @Test
    void a_string_without_a_maximum_is_sent_64_kib_long() {
        List<Probe> probes = probes("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}");

        assertThat(argument(probes, "property 'q' 64 KiB long", "q").asString()).hasSize(64 * 1024).startsWith(MARKER);
    }

    @Test
    void every_hostile_value_carries_the_marker() {
        List<Probe> probes = probes("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}");

        assertThat(probes).filteredOn(p -> p.kind() == Probe.Kind.HOSTILE).hasSize(Hostile.strings(MARKER).size() + 1)
                .allSatisfy(p -> assertThat(p.params().path("arguments").toString()).contains(MARKER));
        assertThat(probes).extracting(Probe::description).contains("property 'q' holding path traversal",
                "property 'q' holding SQL metacharacters", "property 'q' holding shell metacharacters",
                "property 'q' holding format string", "property 'q' holding control characters",
                "property 'q' holding bidirectional override", "property 'q' nested 128 deep");
    }

    @Test
    void unknown_tools_resources_and_prompts_are_named_with_the_marker() {
        assertThat(generator.unknowns(true, true)).extracting(Probe::method)
                .containsExactly("tools/call", "resources/read", "prompts/get");
        assertThat(generator.unknowns(false, false)).singleElement()
                .satisfies(p -> assertThat(p.params().path("name").asString()).startsWith(MARKER));
    }

    private static JsonNode argument(List<Probe> probes, String description, String property) {
        return probes.stream().filter(p -> p.description().equals(description)).findFirst().orElseThrow()
                .params().path("arguments").path(property);
    }

    /** Issue 30: 5,000 tools each held a 64 KiB copy of its own; the value is one instance, shared. */
    @Test
    void every_tool_s_64_kib_value_is_one_shared_instance() {
        String schema = "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}";
        String first = longValue(probes(schema));
        String second = longValue(probes(schema));

        assertThat(first).hasSize(ProbeGenerator.LONG_STRING_CHARS).startsWith(MARKER);
        assertThat(second).isSameAs(first);
    }

    private static String longValue(List<Probe> probes) {
        return probes.stream().filter(p -> p.kind() == Probe.Kind.LONG_STRING).findFirst().orElseThrow()
                .params().path("arguments").path("q").asString();
    }
}
