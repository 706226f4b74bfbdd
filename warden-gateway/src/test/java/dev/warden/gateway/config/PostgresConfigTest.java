package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresConfigTest {

    private static final String UPSTREAMS = "upstreams: { demo: { command: [echo] } }\n";

    private static GatewayConfig parse(String postgres) {
        return GatewayConfig.parse(UPSTREAMS + postgres, Map.of("PG_PASSWORD", "s3cret-pw")::get);
    }

    @Test
    void withoutAPostgresSectionNothingChanges() {
        assertThat(GatewayConfig.parse(UPSTREAMS, Map.<String, String>of()::get).postgres()).isEmpty();
    }

    @Test
    void theUrlTakesItsPasswordFromTheEnvironmentAndTheRestHasDefaults() {
        Postgres p = parse("postgres: { url: \"postgresql://warden:${PG_PASSWORD}@db:5432/warden\" }").postgres()
                .orElseThrow();
        assertThat(p.url()).isEqualTo("postgresql://warden:s3cret-pw@db:5432/warden");
        assertThat(p).isEqualTo(Postgres.of(p.url()));
        assertThat(p.toString()).doesNotContain("s3cret-pw");
    }

    @Test
    void everySettingIsRead() {
        Postgres p = parse("postgres: { url: \"postgresql://w@db/w\", schema: gw_a, maxAge: 30d, batchSize: 500, "
                + "linger: 5ms }").postgres().orElseThrow();
        assertThat(p).isEqualTo(new Postgres("postgresql://w@db/w", "gw_a", Duration.ofDays(30), 500,
                Duration.ofMillis(5)));
    }

    @Test
    void aMistakeNamesItsKeyAndNeverTheCredentials() {
        assertThatThrownBy(() -> parse("postgres: { url: \"mysql://u:s3cret-pw@db/x\" }"))
                .hasMessageStartingWith("postgres.url").hasMessageNotContaining("s3cret-pw");
        assertThatThrownBy(() -> parse("postgres: { url: \"postgresql://u:${NOPE}@db/x\" }"))
                .hasMessageContaining("NOPE is not set");
        assertThatThrownBy(() -> parse("postgres: { url: \"postgresql://db/x\", maxAge: 3h }"))
                .hasMessageStartingWith("postgres.maxAge");
        assertThatThrownBy(() -> parse("postgres: { url: \"postgresql://db/x\", schema: \"a;drop\" }"))
                .hasMessageStartingWith("postgres.schema");
        assertThatThrownBy(() -> parse("postgres: { url: \"postgresql://db/x\", pool: 3 }"))
                .hasMessageContaining("postgres.pool");
    }
}
