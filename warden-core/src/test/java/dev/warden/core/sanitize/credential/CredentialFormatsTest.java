package dev.warden.core.sanitize.credential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.CredentialRedactor;
import dev.warden.core.sanitize.GeneratedCredentials;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** One table of credential formats, read by both scans; no second table beside it. */
class CredentialFormatsTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

    @Test
    void noMainSourceButTheTableSpellsAProvidersPrefix() throws IOException {
        List<Path> sources;
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            sources = modules.filter(m -> m.getFileName().toString().startsWith("warden-"))
                    // The benchmark writes hostile inputs with these prefixes, and the test kit
                    // makes credentials for other modules' tests: neither detects anything.
                    .filter(m -> !m.getFileName().toString().equals("warden-bench"))
                    .filter(m -> !m.getFileName().toString().equals("warden-testkit"))
                    .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory)
                    .flatMap(CredentialFormatsTest::javaFiles).toList();
        }
        assertThat(sources).isNotEmpty();
        List<String> prefixes = CredentialFormats.ROWS.stream().map(CredentialFormats.CredentialFormat::prefix)
                .filter(p -> p.length() > 2).distinct().toList();
        for (Path source : sources) {
            if (source.getFileName().toString().equals("CredentialFormats.java")) {
                continue;
            }
            String text = Files.readString(source);
            assertThat(prefixes).as("credential prefixes spelled in %s", REPOSITORY.relativize(source))
                    .noneMatch(p -> text.contains("\"" + p + "\""));
        }
    }

    @Test
    void bothScansTakeGitHubsDocumentedLength() {
        Random random = new Random(7);
        String token = "ghp_" + GeneratedCredentials.chars(random, GeneratedCredentials.BASE62, 36);
        String shorter = "ghp_" + GeneratedCredentials.chars(random, GeneratedCredentials.BASE62, 35);
        Sanitizer sanitizer = Sanitizer.ofDefaults();

        assertThat(sanitizer.sanitize("see " + token + " here", Policy.REDACT).output())
                .isEqualTo("see [redacted:github-token] here");
        // Shorter is no GitHub token (another detector may still take it for a name).
        assertThat(sanitizer.sanitize("see " + shorter + " here", Policy.REDACT).output())
                .doesNotContain("github-token");
        assertThat(CredentialRedactor.ofDefaults().redact("see " + token + " here").text())
                .isEqualTo("see [redacted:github-token] here");
    }

    @Test
    void everyRowWithBothUsesNamesOneKindInBoth() {
        for (CredentialFormats.CredentialFormat row : CredentialFormats.ROWS) {
            if (row.inErrors().isPresent() && row.shape().isPresent()) {
                String label = row.inErrors().get().label();
                String kind = row.shape().get().kind().label();
                // Error messages name LLM and Google keys by family, as they always have.
                assertThat(label).as(row.prefix()).isIn(kind, "llm-api-key", "gcp-api-key");
            }
        }
    }

    private static Stream<Path> javaFiles(Path root) {
        try {
            return Files.walk(root).filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
