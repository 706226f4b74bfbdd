package dev.warden.spring.boot;

import dev.warden.core.incident.IncidentSink;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Warden's counters as Micrometer meters, when Micrometer is on the class path: Boot binds every
 * {@link MeterBinder} bean to its registries. The failure counts are fed by a sink added beside the
 * application's {@link IncidentSink}.
 */
@AutoConfiguration(before = WardenServerAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
public class WardenMetricsAutoConfiguration {

    @Bean
    FailureCounts wardenFailureCounts() {
        return new FailureCounts();
    }

    @Bean
    WardenServerCustomizer wardenFailureCountsCustomizer(FailureCounts counts, IncidentSink incidents) {
        return builder -> builder.incidents(IncidentSink.all(incidents, counts::record));
    }

    @Bean
    MeterBinder wardenMeterBinder(FailureCounts counts, ObjectProvider<WardenHttpEndpoint> http) {
        return new WardenMeterBinder(counts, java.util.Optional.ofNullable(http.getIfAvailable()));
    }
}
