package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Passwords in URLs: only the password goes; what stands in a password's place in code and docs stays. */
class CredentialRedactorUrlPasswordTest {

    private static final CredentialRedactor REDACTOR = CredentialRedactor.ofDefaults();

    @Test
    void onlyThePasswordIsReplaced() {
        assertThat(REDACTOR.redact("DATABASE_URL=postgres://app_user:Zq8vLr2Wx7Kp@db.internal:5432/app").text())
                .isEqualTo("DATABASE_URL=postgres://app_user:[redacted:url-password]@db.internal:5432/app");
    }

    @Test
    void aPasswordWithAnUnencodedAtSignEndsAtTheLastOne() {
        assertThat(REDACTOR.redact("mysql://root:pa@ss#word9@10.0.0.7/db").text())
                .isEqualTo("mysql://root:[redacted:url-password]@10.0.0.7/db");
    }

    @Test
    void anEmptyUserNameStillHasItsPasswordRedacted() {
        assertThat(REDACTOR.redact("redis://:Zq8vLr2Wx7Kp@cache:6379/0").text())
                .isEqualTo("redis://:[redacted:url-password]@cache:6379/0");
    }

    @Test
    void aUrlWithoutPasswordIsLeft() {
        String text = "ssh://git@github.com:22/org/repo.git https://user@host:8443/path http://[::1]:8080/x";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // code that builds the URL
            "postgres://${DB_USER}:${DB_PASSWORD}@${DB_HOST}/app", "postgres://user:$PGPASSWORD@localhost/db",
            "f\"postgresql://{user}:{password}@{host}/{db}\"", "\"postgres://%s:%s@%s/%s\"",
            "'mysql://%(user)s:%(password)s@%(host)s'", "amqp://{{ .User }}:{{ .Password }}@rabbit:5672/",
            "postgres://user:<password>@localhost/db", "azureservicebus://SAS_POLICY_NAME:SAS_KEY@NAMESPACE",
            // masks and markers
            "postgres://user:****@db.internal/app", "postgres://user:xxxxxxxx@db.internal/app",
            "postgres://user:[redacted:url-password]@db.internal/app",
            // stand-in words
            "scheme://user:password@host", "postgres://postgres:mysecretpassword@localhost/postgres",
            "redis://:yourpassword@cache:6379", "mongodb://admin:changeme@mongo:27017", "mysql://root:p4ssw0rd@db/app",
            "http://john%40corp.com:P%40SSWORD@proxy:3128/", "postgres://user:fakepass@db/app",
            "sqlite+pysqlcipher://:testing@/foo.db", "http://foo:bar@myhost/",
            // too short to be a secret
            "https://a:b@host/", "https://abc:xyz@host/", "https://abc:123@host/",
            // published defaults
            "amqp://guest:guest@localhost:5672/", "postgresql+psycopg2://scott:tiger@localhost/test",
            "postgres://postgres:postgres@localhost:5432/postgres",
            // not a password at all
            "ftp://anonymous:ada@ftp.gnu.org/", "cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src",
            "git://[path-to-repo[:]][ref@]path/to/file", "https://%75%73%65%72:%00%00%00%00@host.internal:8080/",
            // hosts reserved for documentation
            "https://user:Zq8vLr2Wx7Kp@example.com/", "postgres://app:Zq8vLr2Wx7Kp@db.example.org:5432/app",
            "https://user:Zq8vLr2Wx7Kp@server.test/"})
    void whatOnlyStandsInAPasswordsPlaceIsLeft(String url) {
        String text = "url = " + url + "\n";

        assertThat(REDACTOR.redact(text).text()).isSameAs(text);
    }
}
