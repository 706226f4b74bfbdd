package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code access.rules}: CEL expressions, each compiled and type-checked when the file is read; a
 * rule that does not compile or is not a boolean stops the gateway, named with CEL's own message.
 */
class AccessSectionTest {

    private static Optional<Access> access(String section) {
        String text = (section.isEmpty() ? "" : "access: " + section + "\n") + "upstreams: { a: { command: x } }";
        return GatewayConfig.parse(text, Map.<String, String>of()::get).access();
    }

    @Test
    void rulesAreReadInOrder() {
        assertThat(access("""
                { rules: ['mcp.kind == "tool" && mcp.name == "echo"', '"mcp:admin" in caller.scopes',
                          'caller.subject == "alice" && mcp.upstream == "files"'] }""").orElseThrow().rules())
                .containsExactly("mcp.kind == \"tool\" && mcp.name == \"echo\"", "\"mcp:admin\" in caller.scopes",
                        "caller.subject == \"alice\" && mcp.upstream == \"files\"");
    }

    @Test
    void withoutTheSectionThereAreNoRules() {
        assertThat(access("")).isEmpty();
    }

    @Test
    void aRuleThatDoesNotCompileIsNamedWithCelsMessage() {
        assertThatThrownBy(() -> access("{ rules: ['true', 'caller.subject == '] }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("access.rules[1]: ")
                .hasMessageContaining("mismatched input");
    }

    @Test
    void aRuleOnAnUndeclaredVariableIsNamed() {
        assertThatThrownBy(() -> access("{ rules: ['user.name == \"x\"'] }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("access.rules[0]: ")
                .hasMessageContaining("undeclared reference");
    }

    @Test
    void aRuleThatIsNotABooleanIsNamed() {
        assertThatThrownBy(() -> access("{ rules: ['true', 'false', '\"yes\"'] }"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("access.rules[2]: ");
    }

    @Test
    void theSectionsShapeIsChecked() {
        assertThatThrownBy(() -> access("{ rules: [] }")).isInstanceOf(ConfigException.class)
                .hasMessage("access.rules: expected a list of at least one CEL expression");
        assertThatThrownBy(() -> access("{ rules: [42] }")).isInstanceOf(ConfigException.class)
                .hasMessage("access.rules[0]: expected a CEL expression (a string)");
        assertThatThrownBy(() -> access("{ rule: ['true'] }")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("access.rule");
        assertThatThrownBy(() -> access("['true']")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("access: expected a mapping");
    }
}
