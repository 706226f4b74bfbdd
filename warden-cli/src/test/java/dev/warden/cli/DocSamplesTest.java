package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.warden.core.pin.DefinitionPins;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.testkit.Docs;
import dev.warden.testkit.Docs.Block;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the docs (README.md, docs/**.md) show is what the code does: every Java, pom and properties
 * block is quoted word for word from a sample (docs/samples/java, which warden-e2e's
 * DocSamplesEndToEndTest compiles against the reactor's artifacts; warden-examples-spring, a module of
 * the build, for the Spring Boot guide), every YAML and mcpServers JSON block is a configuration the
 * gateway's own reader accepts, every {@code warden} command line names commands and options
 * picocli knows, and every relative link resolves (scripts/doc-links).
 */
class DocSamplesTest {

    private static final Docs DOCS = Docs.read(Docs.repository());

    /** Block languages and what checks them; an unlabelled block is a diagram. */
    private static final Set<String> LANGUAGES = Set.of("java", "xml", "yaml", "json", "sh", "properties", "");

    /** Options in the docs that belong to other programs than warden, with the program. */
    private static final Map<String, String> OTHER_PROGRAMS = Map.ofEntries(
            Map.entry("-Dwarden.test.forks", "Maven (a property of the build: surefire forks)"),
            Map.entry("-Dmaven.javadoc.skip", "Maven (a property of the build: no javadoc jars)"),
            Map.entry("-Xlint:exports", "javac (a lint of the build: exported signatures)"),
            Map.entry("-Werror", "javac (warnings fail the build)"),
            Map.entry("--stateful", "conformance/ts-server"),
            Map.entry("--sessionTimeout", "conformance/ts-server"),
            Map.entry("--server", "the MCP conformance suite"),
            Map.entry("--suite", "the MCP conformance suite"),
            Map.entry("--requirements", "the MCP conformance suite"),
            Map.entry("--ignore-scripts", "npm"),
            Map.entry("--offline", "npm"),
            Map.entry("--remote", "scripts/untuned"),
            Map.entry("--rate", "scripts/bench-gateway"),
            Map.entry("--budget", "scripts/untuned"),
            Map.entry("--postgres", "scripts/cluster"),
            Map.entry("--flag=", "picocli's option syntax"),
            Map.entry("--method", "the MCP Inspector CLI"),
            Map.entry("--tool-name", "the MCP Inspector CLI"),
            Map.entry("--tool-arg", "the MCP Inspector CLI"),
            Map.entry("--transport", "the MCP Inspector CLI"),
            Map.entry("-----BEGIN", "a PEM block"),
            Map.entry("-----BEGIN ", "a PEM block"),
            Map.entry("-XX:GCTimeRatio", "the JVM"),
            Map.entry("-XX:+UseCompactObjectHeaders", "the JVM"),
            Map.entry("-Dname", "the JVM (a system property, in WARDEN_JAVA_OPTS)"));

    @TempDir
    Path dir;

    @Test
    void everyBlockHasALanguageThatIsChecked() {
        assertThat(DOCS.blocks()).isNotEmpty()
                .allSatisfy(b -> assertThat(LANGUAGES).as(b.where()).contains(b.language()));
    }

    @Test
    void everyJavaAndPomBlockIsQuotedFromTheSamples() {
        List<Block> quoting = new ArrayList<>(DOCS.blocks("java"));
        quoting.addAll(DOCS.blocks("xml"));
        quoting.addAll(DOCS.blocks("properties"));           // Spring Boot configuration
        assertThat(quoting).hasSizeGreaterThanOrEqualTo(8);
        for (Block block : quoting) {
            assertThat(block.sample())
                    .as("%s: a %s block says which sample it quotes (<!-- sample: PATH#REGION --> above it)",
                            block.where(), block.language())
                    .isPresent();
            assertThat(block.text())
                    .as("%s quotes %s: the doc and the sample differ", block.where(), block.sample().get())
                    .isEqualTo(DOCS.quoted(block));
        }
    }

    @Test
    void everyConfigurationBlockIsReadByTheGateway() throws IOException {
        List<Block> configurations = new ArrayList<>(DOCS.blocks("yaml"));
        for (Block block : DOCS.blocks("json")) {
            if (block.text().contains("\"mcpServers\"")) {
                configurations.add(block);
            } else {
                JsonMapper.shared().readTree(block.text());       // wire examples: JSON at least
            }
        }
        assertThat(configurations).hasSizeGreaterThanOrEqualTo(8);
        // What the samples name beside them: an API key file, a pin file.
        Files.writeString(dir.resolve("api-keys.yaml"), "keys: []\n");
        DefinitionPins.of(Map.of("tools", JsonMapper.shared().readTree("[]"))).write(dir.resolve("files.pins.json"));
        for (Block block : configurations) {
            String text = block.text();
            boolean section = block.language().equals("yaml") && !text.contains("upstreams:");
            if (section) {
                // A section shown alone: the servers it would sit beside.
                text += "upstreams:\n  sample: { command: [node, server.js] }\n";
            }
            // ${NAME} from the environment: a value of that name, as the shell would give it.
            text = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}").matcher(text).replaceAll("sample-$1");
            Matcher keysFromEnvironment = Pattern.compile(",\\s*env:\\s*([A-Z_]+)").matcher(text);
            if (keysFromEnvironment.find()) {
                // API keys from a variable this JVM cannot set: refused for that reason alone.
                String withKeys = text;
                assertThatThrownBy(() -> load(withKeys)).as(block.where())
                        .hasMessageContaining("the environment variable " + keysFromEnvironment.group(1));
                text = keysFromEnvironment.replaceFirst("");
            }
            try {
                load(text);
            } catch (RuntimeException e) {
                fail(block.where() + ": the gateway refuses this configuration: " + e.getMessage(), e);
            }
        }
    }

    private GatewayConfig load(String text) throws IOException {
        Path file = dir.resolve("warden.yaml");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return GatewayConfig.load(file);
    }

    @Test
    void everyWardenCommandLineNamesCommandsAndOptionsThatExist() {
        CommandSpec warden = Warden.commandLine(new String[0]).getCommandSpec();
        Pattern invocation = Pattern.compile("(?:^|\\s)(?:\\./)?warden\\s+(.*)$");
        int lines = 0;
        for (Block block : DOCS.blocks("sh")) {
            for (String line : block.text().split("\n")) {
                Matcher m = invocation.matcher(line);
                if (m.find()) {
                    lines++;
                    check(warden, m.group(1), block.where() + ": " + line);
                }
            }
        }
        for (Docs.Span span : DOCS.spans()) {
            Matcher m = Pattern.compile("^(?:\\./)?warden\\s+([a-z-]+(?:\\s.*)?)$").matcher(span.text());
            if (m.matches()) {
                lines++;
                check(warden, m.group(1), span.where() + ": `" + span.text() + "`");
            } else if (span.text().matches("--?[A-Za-z].*") && !OTHER_PROGRAMS.containsKey(span.text())) {
                String option = span.text().split("[\\s=]")[0];
                if (!OTHER_PROGRAMS.containsKey(option)) {
                    assertThat(anyCommandHas(warden, option.endsWith("*")
                            ? o -> o.startsWith(option.substring(0, option.length() - 1)) : option::equals))
                            .as("%s: `%s` is no option of any warden command (another program's? "
                                    + "then name it in OTHER_PROGRAMS)", span.where(), span.text())
                            .isTrue();
                }
            }
        }
        // A client's configuration that runs warden: its args are a command line too.
        for (Block block : DOCS.blocks("json")) {
            JsonNode servers = JsonMapper.shared().readTree(block.text()).path("mcpServers");
            for (JsonNode server : servers) {
                if (server.path("command").asString("").endsWith("/warden")) {
                    lines++;
                    List<String> args = new ArrayList<>();
                    server.path("args").forEach(a -> args.add(a.asString()));
                    check(warden, args, block.where() + ": " + args);
                }
            }
        }
        assertThat(lines).isGreaterThanOrEqualTo(40);
    }

    @Test
    void everyRelativeLinkResolves() throws Exception {
        Process links = new ProcessBuilder("python3", "scripts/doc-links").directory(DOCS.root().toFile())
                .redirectErrorStream(true).start();
        String out = new String(links.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(links.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(links.exitValue()).as(out).isZero();
        assertThat(out).contains(" 0 broken");
    }

    /** Walks one command line as picocli would: subcommands, then options up to `--` or the first word of wrap's server. */
    private static void check(CommandSpec root, String arguments, String where) {
        check(root, words(arguments), where);
    }

    private static void check(CommandSpec root, List<String> words, String where) {
        CommandSpec spec = root;
        boolean subcommands = true;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (word.equals("--") || OTHER_PROGRAMS.containsKey(word) || word.startsWith("#") || word.startsWith("<") && !word.endsWith(">")
                    || word.startsWith(">") || word.equals("|") || word.equals("&&")) {
                return;
            }
            CommandLine sub = subcommands ? spec.subcommands().get(word) : null;
            if (sub != null) {
                spec = sub.getCommandSpec();
                continue;
            }
            if (spec == root) {
                if (word.startsWith("-")) {
                    assertThat(spec.findOption(word)).as("%s: warden has no option %s", where, word).isNotNull();
                    continue;
                }
                fail(where + ": warden has no command " + word);
            }
            subcommands = false;
            if (word.startsWith("-") && word.length() > 1 && !word.equals("-")) {
                String name = word.split("=", 2)[0];
                OptionSpec option = spec.findOption(name);
                if (option == null && !spec.subcommands().isEmpty()) {
                    // `warden incidents … --config`: an option of its subcommands
                    assertThat(spec.subcommands().values().stream()
                            .anyMatch(c -> c.getCommandSpec().findOption(name) != null))
                            .as("%s: no subcommand of warden %s has %s", where, spec.name(), name).isTrue();
                    continue;
                }
                assertThat(option).as("%s: warden %s has no option %s", where, spec.qualifiedName(" "), name)
                        .isNotNull();
                if (!word.contains("=") && option.arity().min() > 0) {
                    i++;                                        // its value
                }
            } else if (spec.name().equals("wrap")) {
                return;                                         // the server's command from here on
            }
        }
    }

    /** Whether this command or one below it has an option with a name that matches. */
    private static boolean anyCommandHas(CommandSpec spec, Predicate<String> name) {
        return spec.options().stream().anyMatch(o -> Arrays.stream(o.names()).anyMatch(name))
                || spec.subcommands().values().stream().anyMatch(c -> anyCommandHas(c.getCommandSpec(), name));
    }

    /** Words as a shell splits them, near enough: quotes group, and go. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || !word.isEmpty()) {
                    words.add(word.toString());
                }
                word.setLength(0);
                any = false;
            } else {
                word.append(c);
            }
        }
        if (any || !word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }
}
