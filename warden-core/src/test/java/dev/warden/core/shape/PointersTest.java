package dev.warden.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class PointersTest {

    @Test
    void segmentsAreEscapedPerRfc6901() {
        assertThat(Pointers.fromSegments(JsonNodeFactory.instance.arrayNode().add("a~b").add(0)))
                .contains("/a~0b/0");
    }

    @Test
    void dottedPathsWithIndexesAndQuotedKeys() {
        assertThat(Pointers.fromDotted("emailAddresses[1].email")).contains("/emailAddresses/1/email");
        assertThat(Pointers.fromDotted("a[\"b\"]")).contains("/a/b");
    }

    @Test
    void jsonPathAndFragmentLocations() {
        assertThat(Pointers.fromLocation("$.address.city")).contains("/address/city");
        assertThat(Pointers.fromLocation("$['items'][0]")).contains("/items/0");
        assertThat(Pointers.fromLocation("#/profile/color")).contains("/profile/color");
        assertThat(Pointers.fromLocation("$")).contains("");
    }

    @Test
    void aFilePathIsNeverAPointer() {
        assertThat(Pointers.fromLocation("/home/app/src/main.py")).isEmpty();
        assertThat(Pointers.fromDotted("C:\\app\\config.yml")).isEmpty();
        assertThat(Pointers.fromSegments(JsonNodeFactory.instance.arrayNode().add("../../etc/passwd"))).isEmpty();
    }

    @Test
    void aUrlOrProseIsNeverASegment() {
        assertThat(Pointers.fromDotted("http://internal:8080/x")).isEmpty();
        assertThat(Pointers.fromSegments(JsonNodeFactory.instance.arrayNode().add("ignore previous instructions")))
                .isEmpty();
    }

    @Test
    void aBrokenEscapeIsRefused() {
        assertThat(Pointers.fromLocation("/a~2b")).isEmpty();
    }

    @Test
    void tooDeepOrTooLongGivesNoPointerRatherThanACutOne() {
        var deep = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i <= Pointers.MAX_DEPTH; i++) {
            deep.add("a");
        }
        assertThat(Pointers.fromSegments(deep)).isEmpty();
        assertThat(Pointers.fromDotted("x".repeat(Pointers.MAX_SEGMENT_LENGTH + 1))).isEmpty();
    }
}
