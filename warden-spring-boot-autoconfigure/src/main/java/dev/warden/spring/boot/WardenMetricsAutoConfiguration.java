package dev.warden.spring.boot;

import dev.warden.core.incident.IncidentSink;
import dev.warden.server.McpServer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Warden's counters as Micrometer meters, when Micrometer is on the class path: Boot binds every
 * {@link MeterBinder} bean to its registries. The failure counts are fed by a sink added beside the
 * application's {@link IncidentSink}.
 */
@AutoConfiguration(after = WardenServerAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnSingleCandidate(McpServer.class)
public class WardenMetricsAutoConfiguration {

    @Bean
    FailureCounts wardenFailureCounts() {
        return new FailureCounts();
    }

    /**
     * First of the customizers, so that an application's own {@code builder.incidents(...)} replaces
     * this choice rather than being replaced by it (and is then not counted: the guide says so).
     */
    @Bean
    WardenServerCustomizer wardenFailureCountsCustomizer(FailureCounts counts, IncidentSink incidents) {
        return new CountingCustomizer(counts, incidents);
    }

    private record CountingCustomizer(FailureCounts counts, IncidentSink incidents)
            implements WardenServerCustomizer, Ordered {
        @Override
        public void customize(McpServer.Builder builder) {
            builder.incidents(IncidentSink.all(incidents, counts::record));
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    @Bean
    MeterBinder wardenMeterBinder(FailureCounts counts, ObjectProvider<WardenHttpEndpoint> http) {
        return new WardenMeterBinder(counts, java.util.Optional.ofNullable(http.getIfAvailable()));
    }
}
