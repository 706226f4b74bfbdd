/**
 * Server-sent event streams: the bounded per-stream buffer and its writer, event ids for
 * resumption, the standalone GET stream and how a stream opens. Depends on nothing else in this
 * module.
 */
package dev.warden.http.server.internal.stream;
