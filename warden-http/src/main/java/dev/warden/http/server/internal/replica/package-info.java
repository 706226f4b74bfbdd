/**
 * Streams served by another replica: reading a stream that lives on a peer, and answering for
 * streams that were lost with it.
 */
package dev.warden.http.server.internal.replica;
