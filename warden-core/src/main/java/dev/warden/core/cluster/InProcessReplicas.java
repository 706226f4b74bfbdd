package dev.warden.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Several replicas in one JVM, joined by a hub rather than a store: two servers embedded in one
 * process, and the tests of what crosses replicas. Each member's messages are handled one at a
 * time, in arrival order, on a virtual thread of its own (as the Redis bus does). {@link #stop}
 * is a replica killed: it gets nothing more and counts as down; {@link #unreachable} is the store
 * gone: every send and fact fails until it comes back.
 */
public final class InProcessReplicas {

    private record Fact(Map<String, String> fields, Instant until) {
    }

    private final InstantSource clock;
    private final Map<String, Member> members = new ConcurrentHashMap<>();
    private final Map<String, Fact> facts = new HashMap<>();
    private volatile boolean unreachable;

    private InProcessReplicas(InstantSource clock) {
        this.clock = clock;
    }

    /** A hub whose facts expire by {@code clock}. */
    public static InProcessReplicas hub(InstantSource clock) {
        return new InProcessReplicas(Objects.requireNonNull(clock, "clock"));
    }

    /** A hub on the system clock. */
    public static InProcessReplicas hub() {
        return hub(InstantSource.system());
    }

    /** A new member {@code id} (refused if one of that id is up). */
    public ReplicaBus join(String id) {
        ReplicaBus.word("replica id", id);
        Member member = new Member(id);
        if (members.putIfAbsent(id, member) != null) {
            throw new IllegalArgumentException("replica id '" + id + "' is taken");
        }
        return member;
    }

    /** Replica {@code id} stops as if killed: nothing more reaches it, and it counts as down. */
    public void stop(String id) {
        Member member = members.remove(id);
        if (member != null) {
            member.stopped.set(true);
        }
    }

    /** The store behind the bus is unreachable (true) or back (false). */
    public void unreachable(boolean value) {
        unreachable = value;
    }

    private final class Member implements ReplicaBus {
        private final String id;
        private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
        private final LinkedBlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
        private final AtomicBoolean stopped = new AtomicBoolean();

        Member(String id) {
            this.id = id;
            Thread.ofVirtual().name("warden-replica-" + id).start(this::drain);
        }

        private void drain() {
            while (!stopped.get()) {
                try {
                    inbox.take().run();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // a handler's failure is its own; the next message still goes through
                }
            }
        }

        void receive(String from, String topic, String body) {
            if (stopped.get()) {
                return;
            }
            inbox.add(() -> {
                Handler handler = handlers.get(topic);
                if (handler != null && !stopped.get()) {
                    handler.accept(from, body);
                }
            });
        }

        @Override
        public String self() {
            return id;
        }

        @Override
        public boolean send(String to, String topic, String body) {
            if (unreachable || stopped.get()) {
                return false;
            }
            Member target = members.get(to);
            if (target != null) {
                target.receive(id, topic, body);
            }
            return true; // sent; whether anyone was there to get it is not the sender's to know
        }

        @Override
        public boolean broadcast(String topic, String body) {
            if (unreachable || stopped.get()) {
                return false;
            }
            members.values().stream().filter(m -> m != this).forEach(m -> m.receive(id, topic, body));
            return true;
        }

        @Override
        public void on(String topic, Handler handler) {
            ReplicaBus.word("topic", topic);
            handlers.put(topic, Objects.requireNonNull(handler, "handler"));
        }

        @Override
        public boolean alive(String other) {
            Member member = members.get(other);
            return member != null && !member.stopped.get();
        }

        @Override
        public boolean put(String key, String field, String value, Duration ttl) {
            if (unreachable) {
                return false;
            }
            synchronized (facts) {
                Fact fact = current(key);
                Map<String, String> fields = fact == null ? new HashMap<>() : new HashMap<>(fact.fields());
                fields.put(field, value);
                facts.put(key, new Fact(fields, clock.instant().plus(ttl)));
            }
            return true;
        }

        @Override
        public boolean remove(String key, String field) {
            if (unreachable) {
                return false;
            }
            synchronized (facts) {
                Fact fact = current(key);
                if (fact != null) {
                    Map<String, String> fields = new HashMap<>(fact.fields());
                    fields.remove(field);
                    facts.put(key, new Fact(fields, fact.until()));
                }
            }
            return true;
        }

        @Override
        public Optional<Map<String, String>> read(String key) {
            if (unreachable) {
                return Optional.empty();
            }
            synchronized (facts) {
                Fact fact = current(key);
                return Optional.of(fact == null ? Map.of() : Map.copyOf(fact.fields()));
            }
        }

        /** The fact, unless expired (then forgotten). Called holding the facts' lock. */
        private Fact current(String key) {
            Fact fact = facts.get(key);
            if (fact != null && !clock.instant().isBefore(fact.until())) {
                facts.remove(key);
                return null;
            }
            return fact;
        }

        @Override
        public void close() {
            stop(id);
        }
    }
}
