// A conformance server built on the official TypeScript SDK (@modelcontextprotocol/sdk, from npm),
// written here from the conformance suite's server scenarios: the suite's own TypeScript reference
// server lives only in its Git repository, not in any npm package, and this machine reaches only
// the registries. It offers what those scenarios call (tools test_*, resources under test://,
// prompts test_*), so scripts/conformance can run the suite against a server nobody here wrote the
// protocol of, directly and through `warden gateway`.
//   node server.mjs stdio          over stdio (as a gateway upstream)
//   node server.mjs http PORT      Streamable HTTP at http://localhost:PORT/mcp (0: any free port;
//                                  prints "serving http://localhost:N/mcp")
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import {
  CallToolRequestSchema, ListToolsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, ListPromptsRequestSchema,
  GetPromptRequestSchema, CompleteRequestSchema, CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema, McpError, ErrorCode,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const noArgs = { type: 'object', properties: {} };

const SEP1034 = {
  type: 'object', required: [], properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};
const SEP1330 = {
  type: 'object', required: [], properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: [
      { const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' },
      { const: 'value3', title: 'Third Option' }] },
    legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: { type: 'array', description: 'Select multiple options with titles', minItems: 1, maxItems: 3,
      items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' },
        { const: 'value3', title: 'Third Choice' }] } },
  },
};
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object',
    properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] }, phone: { type: 'string' }, email: { type: 'string' } },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] }, else: { required: ['email'] }, additionalProperties: false,
};

const elicit = (extra, message, field) => extra.sendRequest({ method: 'elicitation/create', params: {
  mode: 'form', message, requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] } } },
ElicitResultSchema);
const sample = (extra) => extra.sendRequest({ method: 'sampling/createMessage', params: {
  messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 } },
CreateMessageResultSchema);

const elicitedText = (label, r) => `${label}: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;

// name -> [description, inputSchema, handler(args, extra, server)]
const TOOLS = {
  test_simple_text: ['Tests simple text content response', noArgs,
    async () => text('This is a simple text response for testing.')],
  test_image_content: ['Tests image content response', noArgs,
    async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] })],
  test_audio_content: ['Tests audio content response', noArgs,
    async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] })],
  test_embedded_resource: ['Tests embedded resource content response', noArgs,
    async () => ({ content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain',
      text: 'This is an embedded resource content.' } }] })],
  test_multiple_content_types: ['Tests response with multiple content types (text, image, resource)', noArgs,
    async () => ({ content: [{ type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }) } }] })],
  test_tool_with_logging: ['Tests tool that emits log messages during execution', noArgs, async (args, extra) => {
    for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await sleep(50);
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
    }
    return text('Tool with logging executed successfully');
  }],
  test_tool_with_progress: ['Tests tool that reports progress notifications', noArgs, async (args, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let step = 0; step <= 100; step += 50) {
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress',
          params: { progressToken, progress: step, total: 100, message: `Completed step ${step} of 100` } });
      }
      if (step < 100) await sleep(50);
    }
    return text('Progress reported');
  }],
  test_error_handling: ['Tests error response handling', noArgs,
    async () => ({ isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] })],
  test_reconnection: ['Tests SSE stream disconnection and client reconnection (SEP-1699)', noArgs, async (args, extra) => {
    extra.closeSSEStream?.();
    await sleep(100);
    return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
  }],
  test_sampling: ['Tests server-initiated sampling (LLM completion request)',
    { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } }, required: ['prompt'] },
    async (args, extra) => {
      const r = await extra.sendRequest({ method: 'sampling/createMessage', params: {
        messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 } },
      CreateMessageResultSchema);
      return text(`LLM response: ${r.content?.text ?? 'No response'}`);
    }],
  test_elicitation: ['Tests server-initiated elicitation (user input request)',
    { type: 'object', properties: { message: { type: 'string', description: 'The message to show the user' } }, required: ['message'] },
    async (args, extra) => {
      const r = await extra.sendRequest({ method: 'elicitation/create', params: { message: args.message,
        requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'] } } }, ElicitResultSchema);
      return text(elicitedText('User response', r));
    }],
  test_elicitation_sep1034_defaults: ['Tests elicitation with default values per SEP-1034', noArgs, async (args, extra) => {
    const r = await extra.sendRequest({ method: 'elicitation/create', params: {
      message: 'Please review and update the form fields with defaults', requestedSchema: SEP1034 } }, ElicitResultSchema);
    return text(elicitedText('Elicitation completed', r));
  }],
  test_elicitation_sep1330_enums: ['Tests elicitation with enum schema improvements per SEP-1330', noArgs, async (args, extra) => {
    const r = await extra.sendRequest({ method: 'elicitation/create', params: {
      message: 'Please select options from the enum fields', requestedSchema: SEP1330 } }, ElicitResultSchema);
    return text(elicitedText('Elicitation completed', r));
  }],
  // The 2026-07-28 scenarios' diagnostic tools, written the session-based way: a plain request to
  // the client mid-call. In front of this server, `warden gateway` turns each into an
  // input-required result for a stateless client, and back into a request for this server.
  test_missing_capability: ['Needs the client\'s sampling capability (2026-07-28: -32021 without it)', noArgs,
    async (args, extra) => {
      const r = await extra.sendRequest({ method: 'sampling/createMessage', params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 10 } },
      CreateMessageResultSchema);
      return text(`LLM response: ${r.content?.text ?? ''}`);
    }],
  test_streaming_elicitation: ['Reports progress, then needs a confirmation', noArgs, async (args, extra) => {
    const progressToken = extra._meta?.progressToken;
    const progress = (p, message) => progressToken === undefined ? undefined : extra.sendNotification({
      method: 'notifications/progress', params: { progressToken, progress: p, total: 1, message } });
    await progress(0, 'Preparing');
    const r = await elicit(extra, 'Continue?', 'confirm');
    await progress(1, 'Done');
    return text(`Confirmed: ${r.action}`);
  }],
  test_custom_headers: ['Routes by region: region and priority travel as Mcp-Param-* headers over HTTP', {
    type: 'object', required: ['region', 'query'], properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' }, priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      query: { type: 'string' } } }, async (args) => text(`Ran in ${args.region}`)],
  test_logging_tool: ['Logs at info', noArgs, async (args, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'test_logging_tool ran' } });
    return text('Logged.');
  }],
  test_input_required_result_elicitation: ['Asks the user\'s name', noArgs, async (args, extra) => {
    const r = await elicit(extra, 'What is your name?', 'name');
    return text(`Hello, ${r.content?.name ?? ''}.`);
  }],
  test_input_required_result_sampling: ['Asks the client\'s model', noArgs, async (args, extra) => {
    const r = await sample(extra);
    return text(`LLM response: ${r.content?.text ?? ''}`);
  }],
  test_input_required_result_list_roots: ['Asks the client\'s roots', noArgs, async (args, extra) => {
    const r = await extra.sendRequest({ method: 'roots/list', params: {} }, ListRootsResultSchema);
    return text(`Roots: ${r.roots.length}`);
  }],
  test_input_required_result_request_state: ['Asks for a confirmation', noArgs, async (args, extra) => {
    await elicit(extra, 'Proceed?', 'ok');
    return text('Confirmed.');
  }],
  test_input_required_result_tampered_state: ['Asks for a confirmation', noArgs, async (args, extra) => {
    await elicit(extra, 'Proceed?', 'ok');
    return text('Confirmed.');
  }],
  test_input_required_result_multiple_inputs: ['Asks for an elicitation, a sampling and the roots at once', noArgs,
    async (args, extra) => {
      await Promise.all([elicit(extra, 'What is your name?', 'name'), sample(extra),
        extra.sendRequest({ method: 'roots/list', params: {} }, ListRootsResultSchema)]);
      return text('All inputs received.');
    }],
  test_input_required_result_multi_round: ['Asks for a name, then for a colour', noArgs, async (args, extra) => {
    const name = await elicit(extra, 'What is your name?', 'name');
    const color = await elicit(extra, 'What is your favourite colour?', 'color');
    return text(`${name.content?.name ?? ''} likes ${color.content?.color ?? ''}.`);
  }],
  test_input_required_result_capabilities: ['Asks only for the inputs the client declared it can give', noArgs,
    async (args, extra, server) => {
      const declared = server.getClientCapabilities() ?? {};
      const asks = [];
      if (declared.elicitation) asks.push(elicit(extra, 'What is your name?', 'name'));
      if (declared.sampling) asks.push(sample(extra));
      if (declared.roots) asks.push(extra.sendRequest({ method: 'roots/list', params: {} }, ListRootsResultSchema));
      await Promise.all(asks);
      return text(`Received ${asks.length} input(s).`);
    }],
  // Diagnostic hooks of the 2026-07-28 listen scenarios: each changes a list and says so on this session.
  test_trigger_tool_change: ['Adds or removes test_dynamic_tool and notifies the tool list change', noArgs,
    async (args, extra, server) => {
      toggle(TOOLS, 'test_dynamic_tool', ['A tool that comes and goes', noArgs, async () => text('Dynamic tool called.')]);
      await server.sendToolListChanged();
      return text('The tool list changed.');
    }],
  test_trigger_prompt_change: ['Adds or removes test_dynamic_prompt and notifies the prompt list change', noArgs,
    async (args, extra, server) => {
      toggle(PROMPTS, 'test_dynamic_prompt', [{ title: 'Dynamic Prompt', description: 'A prompt that comes and goes',
        arguments: [] }, () => [{ role: 'user', content: { type: 'text', text: 'A dynamic prompt.' } }]]);
      await server.sendPromptListChanged();
      return text('The prompt list changed.');
    }],
  json_schema_2020_12_tool: ['Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)', SCHEMA_2020_12,
    async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)],
};

function toggle(table, name, entry) {
  if (table[name]) delete table[name]; else table[name] = entry;
}

const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', title: 'Static Text Resource',
    description: 'A static text resource for testing', mimeType: 'text/plain' },
  { uri: 'test://static-binary', name: 'static-binary', title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing', mimeType: 'image/png' },
  { uri: 'test://watched-resource', name: 'watched-resource', title: 'Watched Resource',
    description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
];
const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

function readResource(uri) {
  if (uri === 'test://static-text') return [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }];
  if (uri === 'test://static-binary') return [{ uri, mimeType: 'image/png', blob: PNG }];
  if (uri === 'test://watched-resource') return [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }];
  const m = TEMPLATE.exec(uri);
  if (m) return [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }];
  throw new McpError(-32002, 'Resource not found', { uri });
}

const PROMPTS = {
  test_simple_prompt: [{ title: 'Simple Test Prompt', description: 'A simple prompt without arguments', arguments: [] },
    () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]],
  test_prompt_with_arguments: [{ title: 'Prompt With Arguments', description: 'A prompt with required arguments', arguments: [
    { name: 'arg1', description: 'First test argument', required: true },
    { name: 'arg2', description: 'Second test argument', required: true }] },
  (a) => [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }]],
  test_prompt_with_embedded_resource: [{ title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource', arguments: [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
  (a) => [{ role: 'user', content: { type: 'resource', resource: { uri: a.resourceUri, mimeType: 'text/plain',
    text: 'Embedded resource content for testing.' } } },
  { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } }]],
  test_input_required_result_prompt: [{ title: 'Prompt Needing Input',
    description: 'Asks the user for context before it renders', arguments: [] },
  async (a, extra) => {
    const r = await elicit(extra, 'What context should the prompt use?', 'context');
    return [{ role: 'user', content: { type: 'text', text: `Context: ${r.content?.context ?? ''}` } }];
  }],
  test_prompt_with_image: [{ title: 'Prompt With Image', description: 'A prompt that includes image content', arguments: [] },
    () => [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } }]],
};

function newServer() {
  const server = new Server({ name: 'ts-sdk-conformance-server', version: '1.0.0' }, {
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true }, logging: {}, completions: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(TOOLS).map(([name, [description, inputSchema]]) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS[request.params.name];
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool[2](request.params.arguments ?? {}, extra, server);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [
    { uriTemplate: 'test://template/{id}/data', name: 'template', title: 'Resource Template',
      description: 'A resource template with parameter substitution', mimeType: 'application/json' }] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: readResource(request.params.uri) }));
  server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: Object.entries(PROMPTS).map(([name, [meta]]) => ({ name, ...meta })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const prompt = PROMPTS[request.params.name];
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return { messages: await prompt[1](request.params.arguments ?? {}, extra) };
  });
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], total: 0, hasMore: false } }));
  return server;
}

const [mode = 'stdio', portArg = '0'] = process.argv.slice(2);
if (mode === 'stdio') {
  await newServer().connect(new StdioServerTransport());
} else if (mode === 'http') {
  const transports = new Map();
  let allowedHosts = [];
  const httpServer = http.createServer(async (req, res) => {
    if (!req.url.startsWith('/mcp')) { res.writeHead(404).end(); return; }
    let body;
    if (req.method === 'POST') {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { body = undefined; }
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId || req.method !== 'POST' || !body || !isInitializeRequest(body)) {
        res.writeHead(sessionId ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({
          jsonrpc: '2.0', id: null, error: { code: -32000, message: sessionId ? 'Session not found' : 'Bad Request: no session' } }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(), eventStore: new InMemoryEventStore(), retryInterval: 1000,
        enableDnsRebindingProtection: true, allowedHosts,
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(Number(portArg), '127.0.0.1', () => {
    const port = httpServer.address().port;
    allowedHosts.push(`localhost:${port}`, `127.0.0.1:${port}`, 'localhost', '127.0.0.1');
    console.log(`serving http://localhost:${port}/mcp`);
  });
} else {
  console.error('usage: node server.mjs stdio | http PORT');
  process.exit(2);
}
