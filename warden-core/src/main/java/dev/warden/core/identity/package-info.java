/**
 * Who is calling: the {@link dev.warden.core.identity.Caller} an
 * {@link dev.warden.core.identity.Authenticator} establishes from a request's credentials, and
 * the verdicts and metadata of an OAuth 2.1 resource server. The HTTP server asks; limits,
 * sessions, audit and authorization follow the caller.
 */
package dev.warden.core.identity;
