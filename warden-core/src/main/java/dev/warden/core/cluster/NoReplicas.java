package dev.warden.core.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** {@link ReplicaBus#none()}: one process, nobody to tell. */
enum NoReplicas implements ReplicaBus {
    INSTANCE;

    @Override
    public String self() {
        return "single";
    }

    @Override
    public boolean send(String to, String topic, String body) {
        return false;
    }

    @Override
    public boolean broadcast(String topic, String body) {
        return true; // nobody else to reach: every other replica has it
    }

    @Override
    public void on(String topic, Handler handler) {
    }

    @Override
    public boolean alive(String id) {
        return self().equals(id);
    }

    @Override
    public boolean put(String key, String field, String value, Duration ttl) {
        return false;
    }

    @Override
    public boolean remove(String key, String field) {
        return false;
    }

    @Override
    public Optional<Map<String, String>> read(String key) {
        return Optional.empty();
    }

    @Override
    public boolean alone() {
        return true;
    }

    @Override
    public void close() {
    }
}
