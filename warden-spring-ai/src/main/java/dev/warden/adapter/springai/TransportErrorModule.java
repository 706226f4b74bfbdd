package dev.warden.adapter.springai;

import dev.warden.adapter.mcpsdk.WardenGuard;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.function.Supplier;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.ValueSerializerModifier;

/**
 * Spring AI's WebMvc transports write two things with Jackson that carry exception text: an
 * {@link McpError} as a response body (Spring MVC serializes the exception object, stack and all)
 * and the SDK's own -32603 answer (with the cause chain in {@code data} in SDK 2.0). Registered in
 * a {@code JsonMapper}, this module writes what {@link WardenGuard#transportValue} puts in their
 * place; every other value, and the same values once guarded, keep Jackson's own serializer.
 */
final class TransportErrorModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    TransportErrorModule(Supplier<WardenGuard> guard) {
        super("warden-spring-ai-transport-errors");
        setSerializerModifier(new ValueSerializerModifier() {
            private static final long serialVersionUID = 1L;

            @Override
            public ValueSerializer<?> modifySerializer(SerializationConfig config, BeanDescription.Supplier bean,
                    ValueSerializer<?> serializer) {
                Class<?> type = bean.getBeanClass();
                return McpError.class.isAssignableFrom(type) || type == JSONRPCResponse.class
                        ? new Guarded(serializer, guard) : serializer;
            }
        });
    }

    /** Jackson's serializer for the type, behind the guard's replacement. */
    private static final class Guarded extends ValueSerializer<Object> {
        private final ValueSerializer<Object> standard;
        private final Supplier<WardenGuard> guard;

        @SuppressWarnings("unchecked") // Jackson hands the serializer of the type this one replaces
        Guarded(ValueSerializer<?> standard, Supplier<WardenGuard> guard) {
            this.standard = (ValueSerializer<Object>) standard;
            this.guard = guard;
        }

        @Override
        public void serialize(Object value, JsonGenerator gen, SerializationContext context) {
            Object safe = guard.get().transportValue(value);
            if (safe == value) {
                standard.serialize(value, gen, context);
            } else {
                // A map or a guarded response: written by its own serializer (this one passes it as it stands).
                context.writeValue(gen, safe);
            }
        }

        @Override
        public void resolve(SerializationContext context) {
            standard.resolve(context);
        }

        @Override
        public ValueSerializer<?> createContextual(SerializationContext context, BeanProperty property) {
            ValueSerializer<?> contextual = standard.createContextual(context, property);
            return contextual == standard ? this : new Guarded(contextual, guard);
        }
    }
}
