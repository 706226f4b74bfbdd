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
