package dev.warden.spring.boot;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code warden.mcp.stdio.enabled=true}, stdout belongs to the protocol from the first byte:
 * {@code System.out} is pointed at stderr before logging starts (so every console log line, and any
 * stray {@code println}, goes to stderr), the banner is off, and the application has no web server
 * of its own unless it says so. Runs before the logging system is initialized, which is what makes
 * the console appender pick up stderr.
 */
public final class StdioEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String SOURCE = "wardenMcpStdio";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getProperty(WardenProperties.PREFIX + ".stdio.enabled", Boolean.class, false)) {
            return;
        }
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        application.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
        // Last, so that the application's own settings win: one that serves REST beside stdio keeps its web server.
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, Map.of(
                "spring.main.banner-mode", "off",
                "spring.main.web-application-type", "none")));
    }
}
