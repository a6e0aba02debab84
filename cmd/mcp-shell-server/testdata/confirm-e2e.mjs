#!/usr/bin/env node
// The confirm tier and the protocol surface, driven by the official
// TypeScript SDK client (shared/tools/mcp-client) against the real binary
// over stdio or Streamable HTTP: a client that answers elicitation/create
// with accept runs the held call, with decline gets the refusal, and a
// client without the capability gets the sentence that says why; an
// empty retained stream reads as a resource; an older SDK (one that
// predates resource_link) gets a background call's result it can parse;
// the capabilities are as advertised.
//
//   node confirm-e2e.mjs --client DIR --bin BINARY --transport stdio|http [--old-sdk DIR]
//
// DIR is an installed copy of shared/tools/mcp-client (npm ci done);
// --old-sdk a directory with node_modules/@modelcontextprotocol/sdk of an
// older release (1.12.1), whose check is skipped with a reason without
// it. Prints one "ok"/"FAIL" line per scenario and exits 1 if any failed.

import { mkdtempSync, mkdirSync, readFileSync, existsSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: opts } = parseArgs({
  options: {
    client: { type: 'string' }, bin: { type: 'string' }, transport: { type: 'string', default: 'stdio' },
    'old-sdk': { type: 'string' },
  },
});
if (!opts.client || !opts.bin) {
  console.error('usage: confirm-e2e.mjs --client DIR --bin BINARY [--transport stdio|http] [--old-sdk DIR]');
  process.exit(64);
}

// loadSDK imports the client side of the SDK installed beneath dir.
async function loadSDK(dir) {
  const base = join(dir, 'node_modules/@modelcontextprotocol/sdk');
  const mod = (p) => import(pathToFileURL(join(base, 'dist/esm', p)).href);
  return {
    version: JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')).version,
    ...(await mod('client/index.js')), ...(await mod('client/stdio.js')), ...(await mod('client/streamableHttp.js')), ...(await mod('types.js')),
  };
}
const sdk = await loadSDK(opts.client);

const transport = opts.transport;
const token = 'ts-e2e-token-0123456789abcdef';
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-confirm-ts-')));
let failures = 0;

function assert(cond, what) {
  if (!cond) throw new Error(what);
}

const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// withServer runs f(connect) against one server with the confirm tier
// on: touch and "echo held ..." wait for the user. connect(options)
// opens a session with the SDK client of options.sdk (default: the
// pinned one), declaring elicitation when options.answer is set, which
// then answers every question with that action (and records it).
async function withServer(name, f) {
  const base = join(root, name);
  const ws = join(base, 'ws');
  const audit = join(base, 'audit.jsonl');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(base, 'retain'));
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin', ALLOW_COMMANDS: 'echo,touch', MCP_SHELL_TOOLS: 'shell_execute,execute_command',
    MCP_SHELL_CONFIRM_COMMANDS: 'touch',
    MCP_SHELL_CONFIRM_PATTERNS: 'echo held.*', MCP_SHELL_AUDIT_LOG: audit, MCP_SHELL_LOG_LEVEL: 'warn',
    MCP_SHELL_RETAIN_DIR: join(base, 'retain'),
  };
  const clients = [];
  let proc;
  let url;
  if (transport === 'http') {
    proc = spawn(opts.bin, [ws], {
      env: { ...env, MCP_SHELL_LOG_LEVEL: 'info', MCP_SHELL_TRANSPORT: 'http', MCP_SHELL_HTTP_ADDR: '127.0.0.1:0', MCP_SHELL_HTTP_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise((resolve, reject) => {
      let buf = '';
      proc.stderr.on('data', (d) => {
        buf += d;
        const m = buf.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
        if (m) resolve(m[0]);
      });
      proc.on('exit', () => reject(new Error('server exited: ' + buf)));
    });
  }
  const connect = async ({ answer, lib = sdk } = {}) => {
    const asked = [];
    const client = new lib.Client({ name: 'confirm-e2e', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} });
    if (answer) {
      client.setRequestHandler(lib.ElicitRequestSchema, (req) => {
        asked.push(req.params);
        return answer === 'accept' ? { action: 'accept', content: {} } : { action: answer };
      });
    }
    const tr = transport === 'http'
      ? new lib.StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } })
      : new lib.StdioClientTransport({ command: opts.bin, args: [ws], env, stderr: 'ignore' });
    await client.connect(tr);
    await client.listTools(); // primes the outputSchema checks
    clients.push(client);
    return { client, asked };
  };
  try {
    return await f(connect, ws);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    if (proc) {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.on('exit', r)));
    }
  }
}

async function call(client, args, tool = 'shell_execute') {
  const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 55000 });
  return { r, s: r.structuredContent ?? {} };
}

// auditConfirmed is the confirmed field of each record in file, in order
// (absent ones left out).
function auditConfirmed(file) {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).confirmed).filter(Boolean);
}

const scenarios = {
  async 'confirm tier: accept runs, decline refuses, no capability is told why'() {
    return withServer('confirm', async (connect, ws) => {
      const yes = await connect({ answer: 'accept' });
      let { r } = await call(yes.client, { command: ['touch', 'accepted'] });
      assert(!r.isError && existsSync(join(ws, 'accepted')), `accept: ${text(r)}`);
      const q = yes.asked[0];
      assert(q && q.message.includes('Stage 1: ["touch","accepted"]') && q.message.includes(`Directory: ${ws}`) && q.message.includes('sandbox: '),
        `question: ${JSON.stringify(q)}`);
      assert(q.requestedSchema && q.requestedSchema.type === 'object', `schema: ${JSON.stringify(q.requestedSchema)}`);
      ({ r } = await call(yes.client, { command: ['echo', 'free'] }));
      assert(!r.isError && yes.asked.length === 1, 'a call the tier does not hold was asked about');
      ({ r } = await call(yes.client, { program: 'echo', args: ['held', 'exec'] }, 'execute_command'));
      assert(!r.isError && text(r).includes('held exec') && yes.asked.length === 2, `execute_command: ${text(r)}`);

      const no = await connect({ answer: 'decline' });
      ({ r } = await call(no.client, { command: ['touch', 'declined'] }));
      assert(r.isError && text(r).includes('The user declined to run this command') && !existsSync(join(ws, 'declined')), `decline: ${text(r)}`);
      ({ r } = await call(no.client, { command: ['echo', 'held', 'bg'], background: true }));
      assert(r.isError && text(r).includes('declined') && !r.structuredContent?.job_id, `decline in the background: ${text(r)}`);

      const none = await connect();
      ({ r } = await call(none.client, { command: ['touch', 'unasked'] }));
      assert(r.isError && text(r).includes('the client did not declare the elicitation capability') &&
        text(r).includes('use a client that supports MCP elicitation') && !existsSync(join(ws, 'unasked')), `no capability: ${text(r)}`);
      return `asked ${yes.asked.length + no.asked.length} questions`;
    }).then(async (note) => {
      const got = auditConfirmed(join(root, 'confirm', 'audit.jsonl'));
      const want = ['accepted', 'accepted', 'declined', 'declined', 'unavailable'];
      assert(JSON.stringify(got) === JSON.stringify(want), `audit confirmed ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      return note;
    });
  },

  async 'an empty retained stream reads as a resource'() {
    return withServer('empty', async (connect) => {
      const { client } = await connect();
      const { s } = await call(client, { command: ['echo', 'hi'], background: true });
      assert(s.job_id, 'no job');
      const st = (await call(client, { id: s.job_id, wait: 30 }, 'job_status')).s;
      assert(st.state === 'exited', `job ${JSON.stringify(st)}`);
      const res = await client.readResource({ uri: `shell-output://${s.job_id}/stderr` }); // throws if neither text nor blob
      assert(res.contents.length === 1 && res.contents[0].text === '', `stderr resource ${JSON.stringify(res)}`);
      return `SDK ${sdk.version}`;
    });
  },

  async 'resource_link only for revisions that define it'() {
    if (!opts['old-sdk']) return 'skipped: no older SDK (npm could not fetch @modelcontextprotocol/sdk@1.12.1)';
    const old = await loadSDK(opts['old-sdk']);
    return withServer('links', async (connect) => {
      const cur = (await connect()).client;
      let { r, s } = await call(cur, { command: ['echo', 'new'], background: true });
      assert(r.content.some((c) => c.type === 'resource_link') && s.job_id, `SDK ${sdk.version}: ${JSON.stringify(r.content)}`);
      const prev = (await connect({ lib: old })).client;
      ({ r, s } = await call(prev, { command: ['echo', 'old'], background: true })); // rejects if the result does not parse
      assert(!r.content.some((c) => c.type === 'resource_link'), `SDK ${old.version} got resource_link`);
      assert(s.job_id && text(r).includes(s.job_id) && text(r).includes(`shell-output://${s.job_id}/stdout`), `SDK ${old.version}: ${text(r)}`);
      return `SDK ${old.version} got the job id as text, ${sdk.version} a resource_link`;
    });
  },

  async 'capabilities as advertised'() {
    return withServer('caps', async (connect) => {
      const { client } = await connect();
      const caps = client.getServerCapabilities();
      assert(caps.tools && !caps.tools.listChanged, `tools ${JSON.stringify(caps.tools)}`);
      assert(!caps.resources?.listChanged, `resources ${JSON.stringify(caps.resources)}`);
      assert(!caps.logging && !caps.prompts, `capabilities ${JSON.stringify(caps)}`);
      for (const [method, params] of [['logging/setLevel', { level: 'info' }], ['prompts/list', {}]]) {
        let err;
        await client.request({ method, params }, sdk.EmptyResultSchema).catch((e) => (err = e));
        assert(err && err.code === -32601, `${method}: ${err ? `${err.code} ${err.message}` : 'answered'}`);
      }
      return `capabilities ${JSON.stringify(caps)}`;
    });
  },
};

for (const [name, f] of Object.entries(scenarios)) {
  const t0 = Date.now();
  try {
    const note = await f();
    console.log(`ok   ${transport}: ${name}${note ? ' — ' + note : ''} (${Date.now() - t0} ms)`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${transport}: ${name}: ${e.message}`);
  }
}
rmSync(root, { recursive: true, force: true });
console.log(`confirm-e2e ${transport}: ${Object.keys(scenarios).length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
