package dev.warden.spring.boot;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A stdio application whose start fails after the context started: a runner throws (after r8). */
@Configuration
@ImportAutoConfiguration({WardenServerAutoConfiguration.class, WardenStdioAutoConfiguration.class})
public class StdioFailingStartMain {

    @Bean
    CommandLineRunner failingRunner() {
        return args -> {
            throw new IllegalStateException("migration failed");
        };
    }

    public static void main(String[] args) {
        new SpringApplicationBuilder(StdioFailingStartMain.class).run(args);
    }
}
