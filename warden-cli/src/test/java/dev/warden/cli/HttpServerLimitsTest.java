package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class HttpServerLimitsTest {

    @Test
    void boundsTheTimeToReceiveARequestAndTheConnectionsWhereNothingWasSet() {
        Properties properties = new Properties();
        HttpServerLimits.apply(properties);
        assertThat(properties).containsEntry("sun.net.httpserver.maxReqTime", "30")
                .containsEntry("sun.net.httpserver.maxRspTime", "60")
                .containsEntry("jdk.httpserver.maxConnections", "256");
    }

    @Test
    void keepsWhatTheOperatorSet() {
        Properties properties = new Properties();
        properties.setProperty("sun.net.httpserver.maxReqTime", "5");
        HttpServerLimits.apply(properties);
        assertThat(properties).containsEntry("sun.net.httpserver.maxReqTime", "5");
    }
}
