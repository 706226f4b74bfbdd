package dev.warden.audit.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HiddenUnicodeTest {

    @ParameterizedTest
    @ValueSource(strings = {"server-everything", "server-filesystem", "server-memory", "server-sequential-thinking"})
    void theOfficialServersDefinitionsHoldNoHiddenCharacters(String server) {
        assertThat(DefinitionChecks.hiddenUnicode(Fixtures.official(server))).isEmpty();
    }

    @Test
    void aZeroWidthSpaceInADescriptionIsFoundWithItsCategoryAndAFingerprint() {
        Definitions d = Fixtures.tools("s", "[{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"Adds\u200B numbers\"}]");
        List<Finding> found = DefinitionChecks.hiddenUnicode(d);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.HIDDEN_UNICODE);
            assertThat(f.location()).isEqualTo("definition:/tools/1/description");
            assertThat(f.evidence()).hasValueSatisfying(e -> {
                assertThat(e.category()).isEqualTo("zero-width");
                assertThat(e.length()).isEqualTo("Adds\u200B numbers".length());
            });
        });
    }

    @Test
    void tagCharactersSpellingHiddenTextAreTheWorstCategory() {
        String smuggled = "Weather" + "\u200B" + new String(Character.toChars(0xE0069)) + new String(Character.toChars(0xE0067));
        Definitions d = Fixtures.tools("s", "[{\"name\":\"w\",\"description\":\"" + smuggled + "\"}]");
        assertThat(DefinitionChecks.hiddenUnicode(d)).singleElement()
                .satisfies(f -> assertThat(f.evidence().orElseThrow().category()).isEqualTo("tag-character"));
    }

    @Test
    void aBidiOverrideInAToolNameIsFoundAndTheNameIsShownWithItEscaped() {
        Definitions d = Fixtures.tools("s", "[{\"name\":\"read\u202Eelif\"}]");
        assertThat(DefinitionChecks.hiddenUnicode(d)).singleElement().satisfies(f -> {
            assertThat(f.location()).isEqualTo("definition:/tools/0/name");
            assertThat(f.tool()).contains("read<U+202E>elif");
            assertThat(f.evidence().orElseThrow().category()).isEqualTo("bidi-control");
        });
    }

    @Test
    void aHiddenCharacterInASchemaPropertyNameIsFoundAtThatKey() {
        Definitions d = Fixtures.tools("s",
                "[{\"name\":\"a\",\"inputSchema\":{\"properties\":{\"pa\u2060th\":{\"type\":\"string\"}}}}]");
        assertThat(DefinitionChecks.hiddenUnicode(d)).extracting(Finding::location)
                .containsExactly("definition:/tools/0/inputSchema/properties/pa<U+2060>th");
    }
}
