/**
 * What one HTTP request brings and how it is refused: the body read within its deadline, the MCP
 * headers, the bearer-token gate, the admission gate and the JSON-RPC refusals. Depends on
 * nothing else in this module.
 */
package dev.warden.http.server.internal.request;
