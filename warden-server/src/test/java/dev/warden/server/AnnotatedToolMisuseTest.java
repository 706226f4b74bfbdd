package dev.warden.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.Size;
import java.lang.invoke.MethodHandles;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every misuse of @Tool fails at registration, in a message that names the method and says what to do. */
class AnnotatedToolMisuseTest {

    private static void refused(Object tools, String... fragments) {
        assertThatThrownBy(() -> McpServer.builder("misuse", "1.0").tools(tools))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(fragments);
    }

    static class TwoContexts {
        @Tool
        String twice(ToolContext a, ToolContext b) {
            return "";
        }
    }

    @Test
    void twoContexts() {
        refused(new TwoContexts(), "TwoContexts.twice(ToolContext, ToolContext)", "more than one ToolContext");
    }

    static class ReturnsANumber {
        @Tool
        int count() {
            return 1;
        }
    }

    @Test
    void aReturnTypeThatIsNeitherResultTextRecordNorNothing() {
        refused(new ReturnsANumber(), "ReturnsANumber.count()", "returns int", "ToolResult, a String, a record or nothing");
    }

    static class ConstraintOnAParameter {
        @Tool
        String find(@Size(max = 3) String code) {
            return code;
        }
    }

    @Test
    void aConstraintOnAParameterRatherThanARecordComponent() {
        refused(new ConstraintOnAParameter(), "ConstraintOnAParameter.find(String)", "@Size", "one record");
    }

    static class OptionalPrimitive {
        @Tool
        String page(@ToolParam(required = false) int size) {
            return "";
        }
    }

    @Test
    void aPrimitiveTheCallerMayLeaveOut() {
        refused(new OptionalPrimitive(), "OptionalPrimitive.page(int)", "\"size\"", "boxed type or an Optional");
    }

    record Page(@ToolParam(required = false) int size) {
    }

    static class OptionalPrimitiveComponent {
        @Tool
        String page(Page page) {
            return "";
        }
    }

    @Test
    void aPrimitiveComponentTheCallerMayLeaveOut() {
        refused(new OptionalPrimitiveComponent(), "OptionalPrimitiveComponent.page(Page)", "\"size\"",
                "boxed type or an Optional");
    }

    static class TakesTheCall {
        @Tool
        String raw(ToolCall call) {
            return "";
        }
    }

    @Test
    void theWholeCallAsAParameter() {
        refused(new TakesTheCall(), "TakesTheCall.raw(ToolCall)", "ToolSpec.builder(..).handler");
    }

    static class SameNameTwice {
        @Tool(name = "lookup")
        String first(String id) {
            return id;
        }

        @Tool(name = "lookup")
        String second(String id) {
            return id;
        }
    }

    @Test
    void twoMethodsForOneToolName() {
        refused(new SameNameTwice(), "SameNameTwice.first(String)", "SameNameTwice.second(String)", "\"lookup\"");
    }

    static class BadName {
        @Tool(name = "find orders!")
        String find() {
            return "";
        }
    }

    @Test
    void aToolNameTheSpecForbids() {
        refused(new BadName(), "BadName.find()", "\"find orders!\"");
    }

    static class SameParameterName {
        @Tool
        String find(@ToolParam(name = "id") String a, @ToolParam(name = "id") String b) {
            return a + b;
        }
    }

    @Test
    void twoParametersOfOneName() {
        refused(new SameParameterName(), "SameParameterName.find(String, String)", "two parameters are named \"id\"");
    }

    record Renamed(@ToolParam(name = "orderId") String id) {
    }

    static class RenamedComponent {
        @Tool
        String find(Renamed args) {
            return args.id();
        }
    }

    @Test
    void aRecordComponentRenamedByToolParam() {
        refused(new RenamedComponent(), "RenamedComponent.find(Renamed)", "@JsonProperty");
    }

    @Test
    void anObjectWithoutToolMethods() {
        refused(List.of(), "no @Tool method in");
    }

    record Booking(@Future LocalDate day, @Digits(integer = 3, fraction = 2) BigDecimal price) {
    }

    static class UntranslatedConstraint {
        @Tool
        String book(Booking booking) {
            return "";
        }
    }

    @Test
    void aConstraintTheSchemaCannotSayIsRefusedRatherThanDropped() {
        refused(new UntranslatedConstraint(), "UntranslatedConstraint.book(Booking)", "Booking.day", "@Future",
                "compact constructor");
    }

    abstract static class Open<A extends Record> {
        @Tool
        String run(A args) {
            return "";
        }
    }

    static class LeftOpen<A extends Record> extends Open<A> {
    }

    @Test
    void aTypeVariableTheTargetLeavesOpen() {
        refused(new LeftOpen<>(), "Open.run(Record)", "type variable A", "LeftOpen");
    }

    @Test
    void aNullLookupIsNamed() {
        assertThatThrownBy(() -> ToolSpec.fromMethods(new Object(), (MethodHandles.Lookup) null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("lookup");
    }
}
