/**
 * The endpoint's settings and the limits clients can make the server hold, built once from the
 * builder and read by every other part.
 */
package dev.warden.http.server.internal.settings;
