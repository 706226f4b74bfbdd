package dev.warden.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application whose MCP server is the Warden starter's: its tools are the beans of
 * {@link OrderTools} and {@link ConformanceBeans}. {@code java -jar} it with
 * {@code --warden.mcp.http.port=0} to serve on a free port, or {@code --warden.mcp.stdio.enabled=true}
 * for a desktop client.
 */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
