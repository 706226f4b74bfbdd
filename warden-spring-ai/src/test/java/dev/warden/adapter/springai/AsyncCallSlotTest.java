package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.annotation.Tool;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The slot around an async handler, without Spring AI: a method's {@code Mono} that fails on another
 * thread reaches the guard as its original when the handler answers Spring AI's text for it; a
 * handler that recovers keeps its answer; outside a guarded call the {@code Mono} fails as it would.
 */
class AsyncCallSlotTest {

    public static class Reports {
        @Tool(description = "reads later")
        public Mono<String> read(String name) {
            return Mono.<String>error(() -> new UncheckedIOException(new NoSuchFileException("/srv/app/" + name)))
                    .subscribeOn(Schedulers.boundedElastic());
        }
    }

    private final Reports reports = (Reports) new ToolMethodProxies(Reports.class.getClassLoader())
            .postProcessAfterInitialization(new Reports(), "reports");

    /** As Spring AI's async callbacks answer a method's failure: its text, marked isError. */
    private Mono<McpSchema.CallToolResult> springAis(Mono<String> method) {
        return method.map(text -> McpSchema.CallToolResult.builder().addTextContent(text).build())
                .onErrorResume(e -> Mono.just(McpSchema.CallToolResult.builder().isError(true)
                        .addTextContent(e.getMessage()).build()));
    }

    @Test
    void aMonoFailingOnAnotherThreadReachesTheGuardAsItsOriginal() {
        Mono<McpSchema.CallToolResult> guarded = CallSlot.aroundAsync(() -> springAis(reports.read("q3.csv")));
        assertThatThrownBy(guarded::block).isInstanceOf(UncheckedIOException.class)
                .hasRootCauseInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aHandlerThatRecoversKeepsItsAnswer() {
        Mono<String> recovered = CallSlot.aroundAsync(() -> reports.read("q3.csv").onErrorReturn("default"));
        assertThat(recovered.block()).isEqualTo("default");
    }

    @Test
    void outsideAGuardedCallTheMonoFailsWithWhatItFails() {
        assertThatThrownBy(() -> reports.read("q3.csv").block()).isInstanceOf(UncheckedIOException.class);
        assertThat(springAis(reports.read("q3.csv")).block().isError()).isTrue();
    }
}
