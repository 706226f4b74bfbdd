/**
 * Actionable extraction: reads the violations (JSON pointer and message), the code and the retry hint
 * out of the error forms other software emits (JSON:API, RFC 9457, JSON Schema validators, Zod,
 * Pydantic, Joi, Yup, class-validator, GraphQL, Google APIs, gRPC, AWS), so a model gets
 * {@code /email: must be a valid email} instead of "a service failed".
 *
 * <p>Entry points: {@link dev.warden.core.shape.ErrorShapes} (the registry; {@code installed()} adds
 * user shapes found with {@link java.util.ServiceLoader}), {@link dev.warden.core.shape.EmbeddedJson}
 * (JSON inside a text, also double-encoded), {@link dev.warden.core.shape.ErrorShape} (the SPI).
 * Everything extracted is untrusted and must be sanitized by the caller. Depends on
 * {@code dev.warden.core.error} only.
 */
package dev.warden.core.shape;
