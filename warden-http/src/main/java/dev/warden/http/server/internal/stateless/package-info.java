/**
 * The 2026-07-28 stateless exchange: one POST, one answer or one event stream, no session.
 */
package dev.warden.http.server.internal.stateless;
