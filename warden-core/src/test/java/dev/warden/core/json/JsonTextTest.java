package dev.warden.core.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** JsonText writes what the mapper's own toString writes, character for character. */
class JsonTextTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void everyCharacterIsEscapedAsTheMapperEscapesIt() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String s = "a" + (char) c + "b";
            JsonNode node = NODES.stringNode(s);
            assertThat(JsonText.of(node)).as("U+%04X", c).isEqualTo(node.toString());
        }
    }

    @Test
    void memberNamesAreEscapedLikeValues() {
        ObjectNode node = NODES.objectNode();
        node.put("a\"b\\c\n\u0001\u2028", "x");
        assertThat(JsonText.of(node)).isEqualTo(node.toString());
    }

    @Test
    void everyKindOfNodeIsWrittenAsTheMapperWritesIt() {
        ObjectNode node = NODES.objectNode();
        node.put("int", -7).put("long", Long.MIN_VALUE).put("short", (short) 3).put("double", 1.5)
                .put("big double", 1e20).put("nan", Double.NaN).put("float", 0.1f)
                .put("decimal", new BigDecimal("1.50")).put("bigint", new BigInteger("123456789012345678901234567890"))
                .put("true", true).put("false", false).put("text", "héllo \uD83D\uDE00 \uD800 lone")
                .put("binary", new byte[] {1, 2, 3}).putNull("null");
        node.putArray("array").add(1).addNull().add("x").addArray();
        node.putObject("empty");
        node.putObject("nested").putObject("deeper").putArray("list").addObject().put("k", "v");
        node.putPOJO("pojo", java.util.List.of(1, 2));
        node.set("missing", NODES.objectNode().path("absent"));
        node.withArray("array").add(NODES.objectNode().path("absent"));
        assertThat(JsonText.of(node)).isEqualTo(node.toString()).contains("\"missing\":null");
    }

    @Test
    void aTreeDeeperThanItWritesItselfIsHandedToTheMapperWhole() {
        ObjectNode root = NODES.objectNode();
        ObjectNode at = root;
        for (int i = 0; i < 300; i++) {
            at = at.putObject("k" + i);
        }
        at.put("leaf", "\u0000");
        assertThat(JsonText.of(root)).isEqualTo(root.toString());
    }

    @Test
    void aParsedMessageIsWrittenBackAsTheMapperWritesIt() {
        String text = "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0000b\",\"result\":{\"content\":[{\"type\":\"text\","
                + "\"text\":\"line\\nnext \\\"q\\\" \\u00e9\"}],\"isError\":false,\"n\":1.25e3,\"big\":"
                + "123456789012345678901234567890,\"x\":-0.0}}";
        JsonNode node = Json.mapper().readTree(text);
        assertThat(JsonText.of(node)).isEqualTo(node.toString());
    }
}
