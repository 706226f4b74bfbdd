package dev.warden.core.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.json.Json;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ParamHeadersTest {

    private static JsonNode json(String text) {
        return Json.mapper().readTree(text.replace('\'', '"'));
    }

    private static final JsonNode SCHEMA = json("""
            {'type':'object','properties':{
              'region':{'type':'string','x-mcp-header':'Region'},
              'priority':{'type':'integer','x-mcp-header':'Priority'},
              'verbose':{'type':'boolean','x-mcp-header':'Verbose'},
              'nested':{'type':'object','properties':{'zone':{'type':'string','x-mcp-header':'Zone'}}},
              'query':{'type':'string'}}}""");

    @Test
    void annotatedArgumentsBecomeHeadersAndOthersDoNot() {
        Map<String, String> headers = ParamHeaders.of(SCHEMA).headers(json(
                "{'region':'us-west1','priority':42,'verbose':false,'nested':{'zone':'b'},'query':'SELECT 1'}"));
        assertThat(headers).containsExactlyInAnyOrderEntriesOf(Map.of("Mcp-Param-Region", "us-west1",
                "Mcp-Param-Priority", "42", "Mcp-Param-Verbose", "false", "Mcp-Param-Zone", "b"));
    }

    @Test
    void nullAndAbsentValuesHaveNoHeader() {
        assertThat(ParamHeaders.of(SCHEMA).headers(json("{'region':null}"))).isEmpty();
    }

    @Test
    void unsafeValuesAreBase64Encoded() {
        assertThat(ParamHeaders.encode("Hello, 世界")).isEqualTo("=?base64?SGVsbG8sIOS4lueVjA==?=");
        assertThat(ParamHeaders.encode(" padded ")).isEqualTo("=?base64?IHBhZGRlZCA=?=");
        assertThat(ParamHeaders.encode("line1\nline2")).isEqualTo("=?base64?bGluZTEKbGluZTI=?=");
        assertThat(ParamHeaders.encode("=?base64?literal?=")).isEqualTo("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
        assertThat(ParamHeaders.encode("us west 1")).isEqualTo("us west 1");
    }

    @Test
    void decodingRefusesBadPaddingBadAlphabetAndControls() {
        assertThat(ParamHeaders.decode("=?base64?SGVsbG8=?=")).contains("Hello");
        assertThat(ParamHeaders.decode("=?base64?SGVsbG8?=")).isEmpty();
        assertThat(ParamHeaders.decode("=?base64?SGVs!!!bG8=?=")).isEmpty();
        assertThat(ParamHeaders.decode("a\nb")).isEmpty();
        assertThat(ParamHeaders.decode("SGVsbG8=")).contains("SGVsbG8=");
    }

    @Test
    void theServerFindsMissingOrDifferingHeaders() {
        ParamHeaders headers = ParamHeaders.of(SCHEMA);
        JsonNode args = json("{'region':'us-west1','priority':42}");
        Map<String, String> sent = Map.of("Mcp-Param-Region", "us-west1", "Mcp-Param-Priority", "42.0");
        assertThat(headers.mismatch(h -> Optional.ofNullable(sent.get(h)), args)).isEmpty();
        assertThat(headers.mismatch(h -> Optional.ofNullable(Map.of("Mcp-Param-Region", "us-west1").get(h)), args))
                .contains("Mcp-Param-Priority");
        assertThat(headers.mismatch(h -> Optional.ofNullable(Map.of("Mcp-Param-Region", "eu",
                "Mcp-Param-Priority", "42").get(h)), args)).contains("Mcp-Param-Region");
        assertThat(headers.mismatch(h -> Optional.ofNullable(Map.of("Mcp-Param-Region", "us-west1",
                "Mcp-Param-Priority", "42", "Mcp-Param-Verbose", "true").get(h)), args)).contains("Mcp-Param-Verbose");
    }

    @Test
    void invalidDefinitionsAreRejectedWithTheRuleTheyBreak() {
        assertInvalid("{'properties':{'v':{'type':'string','x-mcp-header':''}}}", "empty");
        assertInvalid("{'properties':{'v':{'type':'object','x-mcp-header':'V'}}}", "string, integer or boolean");
        assertInvalid("{'properties':{'v':{'type':'number','x-mcp-header':'V'}}}", "string, integer or boolean");
        assertInvalid("{'properties':{'a':{'type':'string','x-mcp-header':'Id'},'b':{'type':'string','x-mcp-header':'id'}}}",
                "unique");
        assertInvalid("{'properties':{'v':{'type':'string','x-mcp-header':'My Region'}}}", "token");
        assertInvalid("{'properties':{'v':{'type':'string','x-mcp-header':'Région'}}}", "token");
        assertInvalid("{'properties':{'v':{'type':'array','items':{'type':'string','x-mcp-header':'V'}}}}", "properties");
        assertInvalid("{'properties':{'v':{'oneOf':[{'type':'string','x-mcp-header':'V'}]}}}", "properties");
        assertInvalid("{'type':'string','x-mcp-header':'Root'}", "properties");
    }

    private static void assertInvalid(String schema, String reason) {
        assertThatThrownBy(() -> ParamHeaders.of(json(schema))).isInstanceOf(ParamHeaders.InvalidException.class)
                .hasMessageContaining(reason);
    }
}
