package dev.warden.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether the application serves MCP over HTTP: {@code warden.mcp.http.enabled} when set, else
 * unless {@code warden.mcp.stdio.enabled} (a desktop client that starts the application over stdio
 * must not find a port taken by the previous one). The same rule as {@link WardenProperties#httpEnabled()}.
 */
final class OnHttpEnabled extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        var env = context.getEnvironment();
        boolean stdio = env.getProperty(WardenProperties.PREFIX + ".stdio.enabled", Boolean.class, false);
        boolean http = env.getProperty(WardenProperties.PREFIX + ".http.enabled", Boolean.class, !stdio);
        return http ? ConditionOutcome.match("Warden MCP over HTTP is enabled")
                : ConditionOutcome.noMatch("Warden MCP over HTTP is disabled");
    }
}
