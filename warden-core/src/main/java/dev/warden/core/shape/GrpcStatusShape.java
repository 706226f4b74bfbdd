package dev.warden.core.shape;

import dev.warden.core.failure.StatusNames;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A gRPC status in JSON: {@code google.rpc.Status} as grpc-gateway and the JSON transcoders write it
 * ({@code {"code": 5, "message": …, "details": [...]}}, code a number or its name) and grpc-js's
 * {@code ServiceError} ({@code {"code": 3, "details": "the message", "metadata": {}}}). Code 0 (OK) is not
 * an error; numbers outside 1–16 (a JSON-RPC {@code -32000}) are not gRPC codes.
 */
final class GrpcStatusShape implements ErrorShape {

    @Override
    public String name() {
        return "grpc-status";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        JsonNode code = Nodes.member(value, "code");
        if (code == null) {
            return Optional.empty();
        }
        String name;
        if (code.isIntegralNumber() && code.canConvertToInt() && code.intValue() >= 1 && code.intValue() <= 16) {
            name = StatusNames.grpcName(code.intValue()).orElseThrow();
        } else if (code.isString() && isGrpcName(code.stringValue())) {
            name = code.stringValue();
        } else {
            return Optional.empty();
        }
        JsonNode details = Nodes.member(value, "details");
        String message = Nodes.text(value, "message");
        if (message == null && details != null && details.isString()) {
            message = details.stringValue();
        }
        if (message == null) {
            return Optional.empty();
        }
        Extracted.Builder out = Extracted.builder(name());
        out.code(StatusNames.ofName(name));
        if (details != null && details.isArray()) {
            GoogleRpcDetails.read(details, out);
        }
        return out.message(message).build();
    }

    private static boolean isGrpcName(String s) {
        for (int i = 1; i <= 16; i++) {
            if (StatusNames.grpcName(i).orElseThrow().equals(s)) {
                return true;
            }
        }
        return false;
    }
}
