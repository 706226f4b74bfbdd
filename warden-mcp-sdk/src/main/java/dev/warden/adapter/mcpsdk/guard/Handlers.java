package dev.warden.adapter.mcpsdk.guard;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * The two shapes every SDK handler has, sync and {@link Mono}, each run behind a recovery: a tool's
 * failure becomes a result, any other handler's an error the SDK passes through. A sync handler may
 * throw anything; an async one may also throw before it returns its {@code Mono}, or return null,
 * or an empty {@code Mono}: the SDK would then send nothing at all, so that is a failure too (every
 * request gets exactly one answer).
 */
final class Handlers {

    private Handlers() {
    }

    /** {@code handler}, with whatever it throws given to {@code recover} (which answers or throws). */
    static <X, R, T> BiFunction<X, R, T> sync(BiFunction<X, R, T> handler, Function<Throwable, T> recover) {
        return (exchange, request) -> {
            T result;
            try {
                result = handler.apply(exchange, request);
            } catch (Throwable t) {
                return recover.apply(t);
            }
            return result != null ? result : recover.apply(new IllegalStateException("the handler returned null"));
        };
    }

    /** {@code handler}, with its error signal (or throw) replaced by {@code recover}'s answer. */
    static <X, R, T> BiFunction<X, R, Mono<T>> answering(BiFunction<X, R, Mono<T>> handler,
            Function<Throwable, T> recover) {
        return (exchange, request) -> answered(() -> handler.apply(exchange, request))
                .onErrorResume(t -> Mono.fromSupplier(() -> recover.apply(t)));
    }

    /** {@code handler}, with its error signal (or throw) replaced by {@code error}'s. */
    static <X, R, T> BiFunction<X, R, Mono<T>> failing(BiFunction<X, R, Mono<T>> handler,
            Function<Throwable, ? extends Throwable> error) {
        return (exchange, request) -> answered(() -> handler.apply(exchange, request)).onErrorMap(error);
    }

    /** The handler's {@code Mono}, failing where it would complete without a value. */
    private static <T> Mono<T> answered(Supplier<Mono<T>> handler) {
        return Mono.defer(handler)
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("the handler answered nothing")));
    }
}
