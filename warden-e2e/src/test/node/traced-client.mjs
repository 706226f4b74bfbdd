// The official TypeScript SDK client (v2), traced with OpenTelemetry's JavaScript SDK: each
// tools/call is a CLIENT span "tools/call {tool}" with the MCP semantic conventions' attributes,
// its context put into the request's params._meta (W3C traceparent/tracestate, as the MCP
// conventions carry it), exported as OTLP/HTTP protobuf to <otlp-endpoint>/v1/traces.
// Usage: node traced-client.mjs <mcp-url> <otlp-endpoint> <tool> <json-arguments> [<tool> <json-arguments>]...
// Prints one JSON object: for each call, the tool, the trace and span ids, and what it received.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

const [url, otlp, ...calls] = process.argv.slice(2);
const provider = new TracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'warden-e2e-client' }),
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${otlp}/v1/traces` }) })],
});
const tracer = provider.getTracer('warden-e2e-client');
const propagator = new W3CTraceContextPropagator();
const endpoint = new URL(url);

const client = new Client({ name: 'warden-e2e-traced', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(endpoint);
await client.connect(transport);
const out = { protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null, calls: [] };
// As a client does before calling (its model picks from the listing): the gateway names spans only by
// the tools an upstream listed. Untraced here, so the calls' traces hold the calls only.
await client.listTools();

for (let i = 0; i < calls.length; i += 2) {
  const tool = calls[i];
  const span = tracer.startSpan(`tools/call ${tool}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': tool,
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'tcp',
      [ATTR_SERVER_ADDRESS]: endpoint.hostname,
      [ATTR_SERVER_PORT]: Number(endpoint.port),
      ...(out.protocolVersion ? { 'mcp.protocol.version': out.protocolVersion } : {}),
      ...(transport.sessionId ? { 'mcp.session.id': transport.sessionId } : {}),
    },
  });
  const meta = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), meta, { set: (carrier, key, value) => { carrier[key] = value; } });
  const record = { tool, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId, meta };
  try {
    record.result = await client.callTool({ name: tool, arguments: JSON.parse(calls[i + 1]), _meta: meta });
    if (record.result.isError) {
      // What the conventions ask for a tool error; the result's text stays out of the span.
      span.setAttribute(ATTR_ERROR_TYPE, 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  } catch (e) {
    record.error = { code: e?.code, message: e?.message, data: e?.data };
    span.setAttribute(ATTR_ERROR_TYPE, typeof e?.code === 'number' ? String(e.code) : (e?.constructor?.name ?? 'Error'));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
  out.calls.push(record);
}
await client.close();
// Sends what is still buffered before the process ends.
await provider.shutdown();
console.log(JSON.stringify(out));
