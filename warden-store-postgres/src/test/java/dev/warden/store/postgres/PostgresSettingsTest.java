package dev.warden.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PostgresSettingsTest {

    @Test
    void theUserAndPasswordOfAUrlGoToTheDriverApartFromTheJdbcUrl() {
        PostgresSettings.Endpoint e = PostgresSettings.endpoint("postgresql://warden:s%40cret@db.internal:6432/audit");
        assertThat(e.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6432/audit");
        assertThat(e.user()).contains("warden");
        assertThat(e.password()).contains("s@cret");
    }

    @Test
    void thePasswordIsNeverInToStringNorInTheRedactedUrl() {
        PostgresSettings s = PostgresSettings.of("postgresql://warden:hunter2@127.0.0.1:5432/db");
        assertThat(s.toString()).doesNotContain("hunter2").contains("jdbc:postgresql://127.0.0.1:5432/db");
        PostgresSettings jdbc = PostgresSettings.of("jdbc:postgresql://h/db?user=u&password=hunter2");
        assertThat(jdbc.toString()).doesNotContain("hunter2");
    }

    @Test
    void aPasswordWithSlashesQuestionMarksOrHashesIsStillTheDriversAlone() {
        // A generated password interpolated from ${PGPASSWORD} is not percent-encoded.
        for (String password : new String[] {"ab/cd", "ab?cd", "ab#cd", "a/b?c#d@e"}) {
            PostgresSettings s = PostgresSettings.of("postgresql://warden:" + password + "@127.0.0.1:5432/db");
            assertThat(PostgresSettings.endpoint(s.url()).password()).contains(password);
            assertThat(s.redactedUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/db");
            assertThat(s.toString()).doesNotContain(password);
        }
        assertThat(PostgresSettings.of("jdbc:postgresql://u:hunter2@h/db?sslpassword=k3y").redactedUrl())
                .doesNotContain("hunter2").doesNotContain("k3y");
    }

    @Test
    void aPercentThatIsNoEncodingIsRefusedWithoutQuotingThePassword() {
        assertThatThrownBy(() -> PostgresSettings.endpoint("postgresql://warden:zq%zqx@h/db"))
                .hasMessageContaining("%25").hasMessageNotContaining("zq");
    }

    @Test
    void aBadValueIsNamed() {
        assertThatThrownBy(() -> PostgresSettings.of("mysql://x/db")).hasMessageContaining("postgresql://");
        assertThatThrownBy(() -> PostgresSettings.of("postgresql://u:p@h/db").withSchema("Bad-Name"))
                .hasMessageContaining("schema");
        assertThatThrownBy(() -> PostgresSettings.of("postgresql://u:p@h/db").withMaxAge(Duration.ofHours(3)))
                .hasMessageContaining("maxAge");
        assertThatThrownBy(() -> PostgresSettings.of("postgresql://u:p@h/db").withBatching(0, Duration.ZERO))
                .hasMessageContaining("batchSize");
    }
}
