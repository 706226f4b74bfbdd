package dev.warden.cli;

import picocli.CommandLine.Mixin;

/**
 * What every command that serves MCP (wrap, gateway, demo) takes besides its own options: where its
 * incidents are kept ({@code --data-dir}, {@code --incident-log}) and the largest message
 * ({@code --max-message-bytes}). Each command words their help its own way ({@link OwnWording}).
 */
final class ServeOptions {

    @Mixin
    DataDirOption dataDir = new DataDirOption();

    @Mixin
    IncidentLogOption incidentLog = new IncidentLogOption();

    @Mixin
    MaxMessageBytesOption maxMessageBytes = new MaxMessageBytesOption();
}
