/**
 * The gateway's spans: a SERVER span for each request a client sends through it, ended with the
 * answer the client received, and a CLIENT span, its child, for each request it sends an upstream,
 * whose context replaces the client's in the upstream request's {@code _meta}. Names, attributes
 * and statuses come from warden-telemetry; nothing here holds an upstream's own words.
 */
package dev.warden.gateway.internal.tracing;
