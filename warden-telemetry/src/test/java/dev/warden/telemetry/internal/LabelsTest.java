package dev.warden.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The labels kept for spans and metrics stay bounded whatever codes a peer answers with. */
class LabelsTest {

    @Test
    void failureSetsAreBoundedOverEveryOperationNotPerOperation() {
        Labels labels = new Labels(Attributes.empty());
        for (int tool = 0; tool < 64; tool++) {
            Labels.Built built = labels.of(SpanKind.CLIENT, "tools/call", Optional.of("tool_" + tool), Channel.http());
            for (int code = 0; code < 4096; code++) {
                built.failed(Integer.toString(-40_000 - code), Optional.empty(), Optional.empty());
            }
        }

        assertThat(labels.keptFailures()).isLessThanOrEqualTo(4096);
    }

    @Test
    void aFailureSetPastTheBoundIsStillTheRightOne() {
        Labels labels = new Labels(Attributes.empty());
        Labels.Built built = labels.of(SpanKind.SERVER, "tools/call", Optional.of("echo"), Channel.stdio());
        for (int code = 0; code < 5000; code++) {
            built.failed(Integer.toString(code), Optional.empty(), Optional.empty());
        }

        Attributes late = built.failed("-32603", Optional.empty(), Optional.empty()).measured();

        assertThat(late.get(McpNames.ERROR_TYPE)).isEqualTo("-32603");
        assertThat(late.get(McpNames.MCP_METHOD_NAME)).isEqualTo("tools/call");
    }

    @Test
    void operationsPastTheBoundUseNoneOfTheFailureBudget() {
        Labels labels = new Labels(Attributes.empty());
        for (int tool = 0; tool < 4096; tool++) {
            labels.of(SpanKind.CLIENT, "tools/call", Optional.of("tool_" + tool), Channel.http());
        }
        for (int tool = 4096; tool < 4196; tool++) {
            labels.of(SpanKind.CLIENT, "tools/call", Optional.of("tool_" + tool), Channel.http())
                    .failed("-32603", Optional.empty(), Optional.empty());
        }

        assertThat(labels.keptFailures()).isZero();
    }
}
