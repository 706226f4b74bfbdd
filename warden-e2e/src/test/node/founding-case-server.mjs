// The founding case of Warden (ash-project/ash_ai#158): a JSON:API server whose validation errors
// say where in the caller's document the mistake is, as JSON pointers such as /data/attributes/email.
// Answers each shape such servers use, over newline-delimited JSON-RPC on stdio by hand (no SDK, so
// every byte is the test's). The `ajv` tool validates its arguments with the real ajv (8, with
// ajv-formats) and reports ajv's own errors, so the pointers and messages are a real validator's.
import { createInterface } from 'node:readline';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const failed = (t) => ({ result: { content: [{ type: 'text', text: t }], isError: true } });

const JSON_API = { errors: [
  { status: '422', title: 'Invalid Attribute', detail: 'must be a valid email', source: { pointer: '/data/attributes/email' } },
  { detail: 'At least one persona is required', source: { pointer: '/data/relationships/personas' } },
] };

const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
const validate = ajv.compile({
  type: 'object', required: ['data'],
  properties: { data: { type: 'object', required: ['attributes'], properties: {
    attributes: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } },
  } } },
});

const ANSWERS = {
  // what AshJsonApi-style tools print: one "pointer: message" line per error
  text: () => failed('/data/attributes/email: must be a valid email'),
  // the JSON:API error document as the tool's text
  jsonapi_document: () => failed(JSON.stringify(JSON_API)),
  // the same document, as JSON-RPC error data
  jsonrpc_data_errors: () => ({ error: { code: -32602, message: 'Invalid params', data: JSON_API } }),
  // the document encoded once more: a JSON string holding it
  double_encoded: () => failed(JSON.stringify(JSON.stringify(JSON_API))),
  // a real validator's output, as servers print it: "instancePath: message" lines, then the errors
  ajv: (args) => {
    if (validate(args ?? {})) {
      return { result: { content: [{ type: 'text', text: 'valid' }] } };
    }
    const lines = validate.errors.map((e) => `${e.instancePath}: ${e.message}`).join('\n');
    return failed(`Invalid arguments:\n${lines}\n${JSON.stringify(validate.errors)}`);
  },
};

const TOOLS = Object.keys(ANSWERS).map((name) => ({ name, inputSchema: { type: 'object' } }));

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) {
    return;
  }
  const reply = (body) => send({ jsonrpc: '2.0', id: msg.id, ...body });
  switch (msg.method) {
    case 'initialize':
      return reply({ result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: 'founding-case', version: '1.0.0' } } });
    case 'ping':
      return reply({ result: {} });
    case 'tools/list':
      return reply({ result: { tools: TOOLS } });
    case 'tools/call': {
      const answer = ANSWERS[msg.params?.name];
      return reply(answer ? answer(msg.params?.arguments) : { error: { code: -32602, message: 'Unknown tool' } });
    }
    default:
      return reply({ error: { code: -32601, message: `Method ${msg.method} not found` } });
  }
});
