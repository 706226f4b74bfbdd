package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Code, configuration and listings that talk about credentials without holding one: the lines that
 * the failure-text sanitizer's name-based rules changed in successful results (issue 13), so that a
 * file read, edited and written back no longer parsed.
 */
class CredentialRedactorCodeTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();

    @ParameterizedTest
    @ValueSource(strings = {
            "const token = process.env.API_TOKEN;",
            "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
            "headers: { Authorization: `Bearer ${token}` },",
            "POSTGRES_PASSWORD=postgres",
            "PWD=/home/x\nOLDPWD=/home/x/src\nSSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.42",
            "api_key: ${OPENAI_API_KEY}",
            "secret = os.environ[\"DJANGO_SECRET_KEY\"]",
            "private_key_path = Path.home() / \".ssh\" / \"id_ed25519\"",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "token = jwt.encode(payload, key, algorithm=\"HS256\")",
            "if (header.startsWith(\"Bearer \")) { token = header.substring(7); }",
            "export NPM_TOKEN=npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904 (HEAD -> main)",
            "\"integrity\": \"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==\""})
    void aLineThatOnlyTalksAboutACredentialComesBackAsItWas(String line) {
        assertThat(REDACTOR.redact(line).text()).isSameAs(line);
    }

    @Test
    void aDiffOfAChangedSettingStaysReadable() {
        // The name-based rules turned both sides into the same placeholder, so a dry run showed no change.
        String diff = "--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n-DATABASE_PASSWORD=old-value-1\n+DATABASE_PASSWORD=new-value-2\n"
                + " API_TOKEN_TTL=3600\n";

        assertThat(REDACTOR.redact(diff).text()).isSameAs(diff);
    }

    @Test
    void aDiffThatAddsARealTokenShowsWhereWithoutShowingIt() {
        String token = "glpat-" + GeneratedCredentials.chars(new java.util.Random(9), GeneratedCredentials.BASE64URL, 20);
        String diff = "-GITLAB_TOKEN=\n+GITLAB_TOKEN=" + token + "\n";

        assertThat(REDACTOR.redact(diff).text()).isEqualTo("-GITLAB_TOKEN=\n+GITLAB_TOKEN=[redacted:gitlab-token]\n");
    }
}
