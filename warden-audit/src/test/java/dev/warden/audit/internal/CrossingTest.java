package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CrossingTest {

    private static ObjectNode text(String text, boolean error) {
        ObjectNode answer = Json.object().put("jsonrpc", "2.0").put("id", 1);
        ObjectNode result = answer.putObject("result");
        if (error) {
            result.put("isError", true);
        }
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return answer;
    }

    private static final ObjectNode OWNER = text("{\"id\":\"n-101\",\"text\":\"Groceries: oat milk, lentils\"}", false);
    private static final ObjectNode REFUSED = text("NOT_FOUND: no such note", true);

    @Test
    void theOwnersRecordForTheOtherCallerWhereTheControlFailsCrosses() {
        assertThat(Crossing.crosses(OWNER, OWNER.deepCopy(), REFUSED, "n-101", "n-9101")).isTrue();
    }

    @Test
    void aToolThatAnswersEveryIdentifierAlikeProvesNothing() {
        ObjectNode made = text("{\"id\":\"n-9101\",\"text\":\"Groceries: oat milk, lentils\"}", false);

        assertThat(Crossing.crosses(OWNER, OWNER.deepCopy(), made, "n-101", "n-9101")).isFalse();
    }

    @Test
    void aRefusalOrAnotherRecordIsNoCrossing() {
        assertThat(Crossing.crosses(OWNER, REFUSED, REFUSED, "n-101", "n-9101")).isFalse();
        assertThat(Crossing.crosses(OWNER, text("{\"id\":\"n-201\",\"text\":\"Dentist on Friday\"}", false),
                REFUSED, "n-101", "n-9101")).isFalse();
    }

    @Test
    void theControlIsShapedLikeTheIdentifierAndSeenByNobody() {
        assertThat(Crossing.control("n-101", Set.of())).isEqualTo("n-9101");
        assertThat(Crossing.control("n-101", Set.of("n-9101"))).isEqualTo("n-99101");
        assertThat(Crossing.control("42", Set.of())).isEqualTo("942");
        assertThat(Crossing.control("abc", Set.of())).isEqualTo("abc-x9");
    }

    @Test
    void identifiersComeFromIdKeysOrFromWordsWithDigits() {
        assertThat(Identifiers.in(text("[{\"id\":\"n-1\"},{\"note_id\":7,\"title\":\"x2\"}]", false)))
                .containsExactly("n-1", "7");
        assertThat(Identifiers.in(text("Available IDs: doc-17, doc-18 (and the welcome note)", false)))
                .containsExactly("doc-17", "doc-18");
        assertThat(Identifiers.in(REFUSED)).isEmpty();
    }
}
