package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Real source files, docs and configs from software on a developer's machine (npm, corepack, the MCP
 * SDK, Werkzeug, requests, botocore, SQLAlchemy, python-dotenv, …; origins and licences in
 * {@code credential-redactor/real-text/SOURCES.md}) come back from the redactor byte for byte: they
 * read tokens from the environment, template them into headers, hash passwords, show placeholders
 * and AWS's example keys, but hold no credential.
 */
class CredentialRedactorCorpusTest {

    private static final String DIRECTORY = "/credential-redactor/real-text/";

    /** The file names in the SOURCES.md table, so that a file cannot be added without its origin. */
    private static List<String> files() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : read("SOURCES.md").split("\n")) {
            if (line.startsWith("| `")) {
                names.add(line.substring(3, line.indexOf('`', 3)));
            }
        }
        return names;
    }

    private static String read(String name) throws IOException {
        try (InputStream in = CredentialRedactorCorpusTest.class.getResourceAsStream(DIRECTORY + name)) {
            return new String(Objects.requireNonNull(in, name).readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyRealFileComesBackByteForByte() throws IOException {
        CredentialRedactor redactor = CredentialRedactor.ofDefaults();
        List<String> files = files();
        long characters = 0;
        for (String name : files) {
            String text = read(name);
            characters += text.length();

            Redaction redaction = redactor.redact(text);

            assertThat(redaction.findings()).as(name).isEmpty();
            assertThat(redaction.text()).as(name).isSameAs(text);
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(24);
        assertThat(characters).isGreaterThan(50_000);
    }
}
