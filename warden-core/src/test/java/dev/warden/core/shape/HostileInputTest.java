package dev.warden.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Whatever an upstream sends, extraction answers, bounded, without throwing. */
class HostileInputTest {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ErrorShapes SHAPES = ErrorShapes.ofDefaults();

    @Test
    void aHugeIssueListGivesAtMostMaxViolations() {
        ArrayNode issues = F.arrayNode();
        for (int i = 0; i < 100_000; i++) {
            issues.addObject().put("code", "custom").put("message", "bad " + i).putArray("path").add("f" + i);
        }
        Extracted e = SHAPES.read(F.objectNode().set("issues", issues)).orElseThrow();
        assertThat(e.violations()).hasSize(Extracted.MAX_VIOLATIONS);
    }

    @Test
    void aHugeMessageIsCut() {
        ObjectNode problem = F.objectNode().put("type", "about:blank").put("detail", "x".repeat(1_000_000));
        Extracted e = SHAPES.read(problem).orElseThrow();
        assertThat(e.message().orElseThrow()).hasSize(Extracted.MAX_MESSAGE_LENGTH).endsWith("…");
    }

    @Test
    void deepNestingUnderErrorIsNotFollowedFarAndDoesNotThrow() {
        JsonNode node = F.objectNode().put("type", "about:blank").put("detail", "deep");
        for (int i = 0; i < 10_000; i++) {
            node = F.objectNode().set("error", node);
        }
        assertThat(SHAPES.read(node)).isEmpty();
    }

    @Test
    void deeplyNestedClassValidatorChildrenAreBounded() {
        ObjectNode leaf = F.objectNode().put("property", "p");
        leaf.putObject("constraints").put("c", "bad");
        ObjectNode node = leaf;
        for (int i = 0; i < 5_000; i++) {
            ObjectNode parent = F.objectNode().put("property", "p");
            parent.putArray("children").add(node);
            node = parent;
        }
        assertThat(SHAPES.read(F.arrayNode().add(node))).isEmpty();
    }

    @Test
    void deepJsonTextIsRefusedByTheDecoder() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertThat(EmbeddedJson.decode(deep)).isEmpty();
    }

    @Test
    void endlesslyReEncodedTextStopsAfterMaxLayers() {
        String text = "{\"errors\": []}";
        for (int i = 0; i < 10; i++) {
            text = F.stringNode(text).toString();
        }
        assertThat(EmbeddedJson.decode(text)).isEmpty();
    }

    @Test
    void mistypedMembersAreIgnored() {
        JsonNode weird = EmbeddedJson.decode("{\"errors\": [1, null, \"x\", {\"source\": 5, \"detail\": []},"
                + " {\"path\": {}, \"message\": 3}], \"issues\": 7, \"detail\": {\"loc\": 1},"
                + " \"code\": 99999999999999999999, \"__type\": 1, \"status\": \"abc\"}").orElseThrow();
        assertThat(SHAPES.read(weird)).isEmpty();
    }
}
