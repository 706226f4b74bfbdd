package dev.warden.cli;

import dev.warden.examples.conformance.ConformanceClient;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code warden conformance-client URL}: the client the official conformance suite drives
 * ({@code conformance client --command "./warden conformance-client"}); hidden from the help, as
 * it is a test fixture, not a tool.
 */
@Command(name = "conformance-client", hidden = true,
        description = "Runs the conformance client against URL for the scenario in MCP_CONFORMANCE_SCENARIO.")
final class ConformanceClientCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "URL", description = "The scenario server's MCP endpoint.")
    URI url;

    @Override
    public Integer call() {
        String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "");
        try {
            ConformanceClient.run(url, scenario,
                    java.util.Optional.ofNullable(System.getenv("MCP_CONFORMANCE_CONTEXT")));
            return 0;
        } catch (RuntimeException e) {
            System.err.println("warden conformance-client: scenario " + scenario + " failed: " + e);
            return 1;
        }
    }
}
