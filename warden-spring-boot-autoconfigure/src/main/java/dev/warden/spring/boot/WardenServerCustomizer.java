package dev.warden.spring.boot;

import dev.warden.server.McpServer;

/**
 * Changes the {@link McpServer} the starter builds, after it has added the tool, resource and prompt
 * beans and the incident sink: a classifier, a request timeout, anything the builder offers.
 * Customizers run in their bean order.
 */
@FunctionalInterface
public interface WardenServerCustomizer {
    void customize(McpServer.Builder builder);
}
