package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.gateway.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreSourceTest {

    @Test
    void aReferenceToAnUnsetVariableInThePostgresUrlIsAnErrorNamingIt() {
        StoreSource source = new StoreSource();
        source.postgres = "postgresql://warden:${WARDEN_SURELY_UNSET_VARIABLE}@db/warden";
        source.schema = "warden";
        assertThatThrownBy(source::postgres).isInstanceOf(ConfigException.class)
                .hasMessageContaining("WARDEN_SURELY_UNSET_VARIABLE is not set");
    }

    @Test
    void thePostgresUrlGivesTheStoreWithItsSchemaAndNeverShowsThePassword() {
        StoreSource source = new StoreSource();
        source.postgres = "postgresql://warden:Xk9vQ2mPz7@db.internal:5432/warden";
        source.schema = "gw_b";
        assertThat(source.postgres().orElseThrow().schema()).isEqualTo("gw_b");
        assertThat(source.postgres().orElseThrow().toString()).doesNotContain("Xk9vQ2mPz7");
    }

    @Test
    void aConfigurationWithoutAPostgresSectionMeansTheFilesOfItsDataDirectory(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("warden.yaml");
        Files.writeString(config, "dataDir: " + dir + "\nupstreams: { demo: { command: [echo] } }\n");
        StoreSource source = new StoreSource();
        source.config = config;
        source.schema = "warden";
        assertThat(source.postgres()).isEmpty();
        try (StoreSource.Opened opened = source.open(new DataDirOption())) {
            assertThat(opened.where()).isEqualTo(dir.resolve("incidents").toString());
        }
    }
}
