package dev.warden.audit.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import org.junit.jupiter.api.Test;

class NamesTest {

    @Test
    void aToolNamedAsTheFilesystemServersReadFileShadowsIt() {
        Definitions d = Fixtures.tools("notes-server", "[{\"name\":\"list\"},{\"name\":\"readFile\"}]");
        assertThat(DefinitionChecks.shadowing(d)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NAME_SHADOWING);
            assertThat(f.tool()).contains("readFile");
            assertThat(f.location()).isEqualTo("definition:/tools/1/name");
        });
    }

    @Test
    void theServerAToolNameComesFromDoesNotShadowItself() {
        assertThat(DefinitionChecks.shadowing(Fixtures.official("server-filesystem"))).isEmpty();
        assertThat(DefinitionChecks.shadowing(Fixtures.official("server-memory"))).isEmpty();
    }

    @Test
    void aGenericNameNoServerOwnsShadowsNothing() {
        // warden demo's "login", a shell's "bash": common to many servers, the tool of none.
        Definitions d = Fixtures.tools("demo", "[{\"name\":\"login\"},{\"name\":\"search\"},{\"name\":\"bash\"}]");
        assertThat(DefinitionChecks.shadowing(d)).isEmpty();
    }

    @Test
    void aNameListedTwiceIsReportedAtItsSecondListing() {
        Definitions d = Fixtures.tools("s", "[{\"name\":\"sum\"},{\"name\":\"avg\"},{\"name\":\"sum\"}]");
        assertThat(DefinitionChecks.shadowing(d)).extracting(Finding::location)
                .containsExactly("definition:/tools/2/name");
    }

    @Test
    void aToolWhoseNameSaysItDeletesWithoutHintsIsReported() {
        Definitions d = Fixtures.tools("s", """
                [{"name":"deleteUser"},
                 {"name":"remove-file","annotations":{"destructiveHint":true}},
                 {"name":"send_email","annotations":{"readOnlyHint":false}},
                 {"name":"list_users"}]
                """);
        assertThat(DefinitionChecks.destructiveWithoutAnnotation(d)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.DESTRUCTIVE_WITHOUT_ANNOTATION);
            assertThat(f.location()).isEqualTo("definition:/tools/0");
            assertThat(f.message()).contains("delete");
        });
    }

    @Test
    void theFilesystemAndMemoryServersAnnotateTheirWritingTools() {
        assertThat(DefinitionChecks.destructiveWithoutAnnotation(Fixtures.official("server-filesystem"))).isEmpty();
        assertThat(DefinitionChecks.destructiveWithoutAnnotation(Fixtures.official("server-memory"))).isEmpty();
    }

    @Test
    void namesAreSplitOnSeparatorsAndCamelCase() {
        assertThat(NameParts.of("getUser_by-id.v2")).containsExactly("get", "user", "by", "id", "v2");
    }
}
