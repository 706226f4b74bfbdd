package dev.warden.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.Locale;
import java.util.Map;

/**
 * Logging set up in code rather than from a logback.xml: parsing XML at start-up loads an XML
 * parser and Joran (about 600 classes), which is a tenth of {@code warden wrap}'s cold start.
 * Everything goes to stderr, because on stdio stdout is the protocol stream; {@code
 * WARDEN_LOG_FORMAT=json} writes one JSON object per line, {@code WARDEN_LOG_LEVEL} sets the level
 * (WARN by default). An operator's own {@code -Dlogback.configurationFile} still wins.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {

    private final Map<String, String> environment;

    public LogSetup() {
        this(System.getenv());
    }

    LogSetup(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        // A status listener of our own keeps logback from printing its status to stdout.
        context.getStatusManager().add(new NopStatusListener());
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("stderr");
        appender.setTarget("System.err");
        appender.setEncoder(encoder(context));
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(level());
        root.addAppender(appender);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The level WARDEN_LOG_LEVEL names; an unknown name keeps the default rather than failing start-up. */
    Level level() {
        String name = environment.getOrDefault("WARDEN_LOG_LEVEL", "WARN");
        return Level.toLevel(name.trim().toUpperCase(Locale.ROOT), Level.WARN);
    }

    boolean json() {
        return "json".equalsIgnoreCase(environment.getOrDefault("WARDEN_LOG_FORMAT", "text").trim());
    }

    private Encoder<ILoggingEvent> encoder(LoggerContext context) {
        if (json()) {
            JsonEncoder encoder = new JsonEncoder();
            encoder.setContext(context);
            encoder.setWithContext(false);
            encoder.setWithSequenceNumber(false);
            encoder.setWithNanoseconds(false);
            encoder.setWithThreadName(false);
            encoder.start();
            return encoder;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n");
        encoder.start();
        return encoder;
    }
}
