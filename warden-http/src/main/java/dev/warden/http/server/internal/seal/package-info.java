/**
 * Portable sessions: the sealed, encrypted session state a client carries to another replica, and
 * the keys that seal it.
 */
package dev.warden.http.server.internal.seal;
