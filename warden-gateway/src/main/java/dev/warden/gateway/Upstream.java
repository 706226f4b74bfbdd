package dev.warden.gateway;

import dev.warden.client.McpClient;
import dev.warden.client.ReconnectPolicy;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.transport.Transport;
import java.time.Duration;
import java.util.List;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One server the gateway stands in front of: its name (the only way logs and incidents name it:
 * never its command line, URL or credentials), how to reach it, and its settings.
 *
 * @param timeout how long a request to it may stay silent (progress resets it)
 * @param policy how its failure texts and log messages are sanitized
 * @param redactSuccessfulResults whether credentials in its successful results are redacted
 */
public record Upstream(String name, Supplier<Transport> connector, Duration timeout, Policy policy,
        boolean redactSuccessfulResults, ReconnectPolicy reconnect) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public Upstream {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.contains("__")) {
            throw new IllegalArgumentException("upstream name must be non-blank and free of \"__\", got \"" + name
                    + "\"");
        }
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(reconnect, "reconnect");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout of upstream " + name + " must be positive, got " + timeout);
        }
    }

    /** A server launched as a subprocess and spoken to over stdio; its stderr goes to the log. */
    public static Upstream stdio(String name, List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("upstream " + name + " needs a command");
        }
        return new Upstream(name, McpClient.stdio(command), DEFAULT_TIMEOUT, Policy.REDACT, true,
                ReconnectPolicy.ofDefaults());
    }

    public Upstream withTimeout(Duration timeout) {
        return new Upstream(name, connector, timeout, policy, redactSuccessfulResults, reconnect);
    }

    public Upstream withPolicy(Policy policy) {
        return new Upstream(name, connector, timeout, policy, redactSuccessfulResults, reconnect);
    }

    public Upstream withRedactSuccessfulResults(boolean redact) {
        return new Upstream(name, connector, timeout, policy, redact, reconnect);
    }

}
