#!/usr/bin/env node
// Job scenarios of issue 14 driven by the official TypeScript SDK client
// (shared/tools/mcp-client), against the real binary over stdio or
// Streamable HTTP. Every call first lists the tools, so the SDK checks each
// structuredContent against the tool's outputSchema, as a strict client
// does. Synchronisation is the tools' own waits and resources/updated;
// only killed processes' liveness is polled.
//
//   node jobs-e2e.mjs --client DIR --bin BINARY --transport stdio|http
//
// DIR is an installed copy of shared/tools/mcp-client (npm ci done). Prints
// one "ok"/"FAIL" line per scenario and exits 1 if any failed.

import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, chmodSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: opts } = parseArgs({
  options: { client: { type: 'string' }, bin: { type: 'string' }, transport: { type: 'string', default: 'stdio' } },
});
if (!opts.client || !opts.bin) {
  console.error('usage: jobs-e2e.mjs --client DIR --bin BINARY [--transport stdio|http]');
  process.exit(64);
}
const sdk = (p) => import(pathToFileURL(join(opts.client, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { ResourceUpdatedNotificationSchema } = await sdk('types.js');

const transport = opts.transport;
const token = 'ts-e2e-token-0123456789abcdef';
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-jobs-ts-')));
let failures = 0;

function assert(cond, what) {
  if (!cond) throw new Error(what);
}

// text is a result's text content.
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

// A server configuration: a workspace, helper scripts outside it, an audit
// file and a retention directory, all under root.
function setup(name, helpers = {}) {
  const base = join(root, name);
  const dirs = { ws: join(base, 'ws'), tools: join(base, 'tools'), retain: join(base, 'retain'), audit: join(base, 'audit.jsonl') };
  for (const d of [dirs.ws, dirs.tools, dirs.retain]) mkdirSync(d, { recursive: true });
  for (const [file, body] of Object.entries(helpers)) {
    const p = join(dirs.tools, file);
    writeFileSync(p, '#!/bin/sh\n' + body);
    chmodSync(p, 0o755);
  }
  return dirs;
}

// withServer runs f(connect) against one server; connect() opens a new
// session (over stdio, a new server process).
async function withServer(dirs, env, f) {
  // The job scripts run sleep and write beside the allowed directory: these
  // scenarios are about jobs, so children run unconfined (the sandbox has
  // its own end-to-end tests and proofs).
  const fullEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin', MCP_SHELL_AUDIT_LOG: dirs.audit, MCP_SHELL_LOG_LEVEL: 'info',
    MCP_SHELL_RETAIN_DIR: dirs.retain, MCP_SHELL_SANDBOX: 'off', ...env,
  };
  const clients = [];
  let proc;
  let url;
  if (transport === 'http') {
    proc = spawn(opts.bin, [dirs.ws], {
      env: { ...fullEnv, MCP_SHELL_TRANSPORT: 'http', MCP_SHELL_HTTP_ADDR: '127.0.0.1:0', MCP_SHELL_HTTP_TOKEN: token },
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
  const connect = async (onUpdated) => {
    const client = new Client({ name: 'jobs-e2e', version: '1.0.0' }, { capabilities: {} });
    if (onUpdated) client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onUpdated(n.params.uri));
    const tr = transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } })
      : new StdioClientTransport({ command: opts.bin, args: [dirs.ws], env: fullEnv, stderr: 'ignore' });
    await client.connect(tr);
    await client.listTools(); // primes the outputSchema checks
    clients.push(client);
    return client;
  };
  try {
    await f(connect);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    if (proc) {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.on('exit', r)));
    }
  }
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 55000 });
  return { r, s: r.structuredContent ?? {} };
}

async function startJob(client, args) {
  const { r, s } = await call(client, 'shell_execute', { ...args, background: true });
  assert(!r.isError && s.job_id, `start ${JSON.stringify(args)}: ${text(r)}`);
  assert(r.content.some((c) => c.type === 'resource_link' && c.uri === `shell-output://${s.job_id}/stdout`), 'no resource link');
  return s.job_id;
}

async function waitJob(client, id) {
  for (let i = 0; i < 4; i++) {
    const { s } = await call(client, 'job_status', { id, wait: 30 });
    if (s.state !== 'running' && s.state !== 'queued') return s;
  }
  throw new Error(`job ${id} still running`);
}

const ticker = 'i=1\nwhile [ $i -le 3 ]; do echo "tick $i"; i=$((i+1)); sleep 1; done\n';

const scenarios = {
  async 'job printing a line a second, paged while it runs, then waited for'() {
    const d = setup('ticker', { 'ticker.sh': ticker });
    await withServer(d, { ALLOW_COMMANDS: join(d.tools, 'ticker.sh') }, async (connect) => {
      const c = await connect();
      const id = await startJob(c, { command: [join(d.tools, 'ticker.sh')] });
      const first = (await call(c, 'read_output', { id, wait: 30 })).s;
      assert(first.data.startsWith('tick 1\n') && !first.done, `first page ${JSON.stringify(first)}`);
      const second = (await call(c, 'read_output', { id, offset: first.next_offset, wait: 30 })).s;
      assert(second.data.startsWith('tick 2\n'), `second page ${JSON.stringify(second)}`);
      const st = await waitJob(c, id);
      assert(st.state === 'exited' && st.exit_code === 0 && st.stdout_bytes === 21, `status ${JSON.stringify(st)}`);
      const all = (await call(c, 'read_output', { id })).s;
      assert(all.data === 'tick 1\ntick 2\ntick 3\n' && all.eof, `whole ${JSON.stringify(all)}`);
    });
  },

  async 'job_kill of a tree ignoring SIGTERM leaves no survivor'() {
    const d = setup('kill', { 'stubborn.sh': "trap '' TERM\nsleep 300 &\necho \"$$ $!\"\nwait\n" });
    await withServer(d, { ALLOW_COMMANDS: join(d.tools, 'stubborn.sh') }, async (connect) => {
      const c = await connect();
      const id = await startJob(c, { command: [join(d.tools, 'stubborn.sh')] });
      const pids = (await call(c, 'read_output', { id, wait: 30 })).s.data.trim().split(/\s+/).map(Number);
      assert(pids.length === 2, `pids ${pids}`);
      const { s } = await call(c, 'job_kill', { id });
      assert(s.state === 'killed' && s.killed_by === 'job_kill', `kill ${JSON.stringify(s)}`);
      const deadline = Date.now() + 2000;
      while (pids.some(alive)) {
        assert(Date.now() < deadline, `survivors ${pids.filter(alive)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
  },

  async 'a job past MCP_SHELL_MAX_JOB_SECONDS times out'() {
    const d = setup('runtime');
    await withServer(d, { ALLOW_COMMANDS: 'sleep', MCP_SHELL_MAX_JOB_SECONDS: '1' }, async (connect) => {
      const c = await connect();
      const id = await startJob(c, { command: ['sleep', '30'], timeout: 600 });
      const st = await waitJob(c, id);
      assert(st.state === 'timed_out' && st.timeout_seconds === 1, `status ${JSON.stringify(st)}`);
    });
  },

  async '20 jobs against a bound of 8'() {
    const d = setup('bound');
    await withServer(d, { ALLOW_COMMANDS: 'cat', MCP_SHELL_MAX_JOBS: '8' }, async (connect) => {
      const c = await connect();
      const ids = [];
      for (let i = 0; i < 20; i++) ids.push(await startJob(c, { command: ['cat'], stdin_open: true }));
      const l = (await call(c, 'job_list', {})).s;
      assert(l.running === 8 && l.queued === 12, `running ${l.running} queued ${l.queued}`);
      for (const id of ids) {
        const { r } = await call(c, 'job_stdin', { id, data: id + '\n', close: true });
        assert(!r.isError, text(r));
      }
      const events = [];
      for (const id of ids) {
        const st = await waitJob(c, id);
        assert(st.state === 'exited' && st.stdout_bytes === 11, `job ${JSON.stringify(st)}`);
        events.push([Date.parse(st.started_at), 1], [Date.parse(st.ended_at), -1]);
      }
      events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let n = 0, peak = 0;
      for (const [, delta] of events) peak = Math.max(peak, (n += delta));
      assert(peak <= 8, `${peak} at once`);
    });
  },

  async 'adaptive hand-off'() {
    const d = setup('adaptive');
    await withServer(d, { ALLOW_COMMANDS: 'sleep,echo', MCP_SHELL_ADAPTIVE_SECONDS: '1' }, async (connect) => {
      const c = await connect();
      const t0 = Date.now();
      const { r, s } = await call(c, 'shell_execute', { command: ['sleep', '2'], timeout: 30 });
      assert(s.job_id && text(r).includes('still running after 1s') && Date.now() - t0 < 1900, `hand-off ${text(r)}`);
      const st = await waitJob(c, s.job_id);
      assert(st.state === 'exited' && st.adaptive === true, `job ${JSON.stringify(st)}`);
      const q = await call(c, 'shell_execute', { command: ['echo', 'quick'] });
      assert(text(q.r) === 'quick\n' && !q.s.job_id, `quick ${text(q.r)}`);
    });
  },

  async 'chaining with stdin_output_id'() {
    const d = setup('chain');
    writeFileSync(join(d.ws, 'in.txt'), 'b\nc\na\n');
    await withServer(d, { ALLOW_COMMANDS: 'cat,sort' }, async (connect) => {
      const c = await connect();
      const first = (await call(c, 'shell_execute', { command: ['cat', 'in.txt'] })).s;
      const sorted = (await call(c, 'shell_execute', { command: ['sort'], stdin_output_id: first.output_id })).s;
      assert(sorted.stdout === 'a\nb\nc\n', `sorted ${JSON.stringify(sorted)}`);
    });
  },

  async 'resource read and resources/updated while a job writes'() {
    const d = setup('resource', { 'ticker.sh': ticker });
    await withServer(d, { ALLOW_COMMANDS: join(d.tools, 'ticker.sh') }, async (connect) => {
      let notified;
      const got = new Promise((r) => (notified = r));
      const c = await connect((uri) => notified(uri));
      const tpl = await c.listResourceTemplates();
      assert(tpl.resourceTemplates.some((t) => t.uriTemplate === 'shell-output://{id}/{stream}'), 'no template');
      const id = await startJob(c, { command: [join(d.tools, 'ticker.sh')] });
      const uri = `shell-output://${id}/stdout`;
      await c.subscribeResource({ uri });
      const which = await Promise.race([got, new Promise((_, rej) => setTimeout(() => rej(new Error('no resources/updated')), 20000))]);
      assert(which === uri, `updated ${which}`);
      const res = await c.readResource({ uri });
      assert(res.contents[0].text.startsWith('tick 1\n'), `read ${JSON.stringify(res)}`);
      await waitJob(c, id);
    });
  },

  async 'quota and TTL eviction'() {
    const d = setup('evict');
    writeFileSync(join(d.ws, 'k'), 'k'.repeat(1000));
    await withServer(d, { ALLOW_COMMANDS: 'head', MCP_SHELL_RETAIN_QUOTA_BYTES: '3000', MCP_SHELL_RETAIN_BYTES: '1000' }, async (connect) => {
      const c = await connect();
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push((await call(c, 'shell_execute', { command: ['head', '-c', '1000', 'k'] })).s.output_id);
      const { r } = await call(c, 'read_output', { id: ids[0] });
      assert(r.isError && text(r).includes('was evicted'), `evicted: ${text(r)}`);
      assert((await call(c, 'read_output', { id: ids[3] })).s.bytes === 1000, 'newest not readable');
    });
    const t = setup('ttl');
    writeFileSync(join(t.ws, 'k'), 'k\n');
    await withServer(t, { ALLOW_COMMANDS: 'head', MCP_SHELL_RETAIN_TTL_SECONDS: '1' }, async (connect) => {
      let notified;
      const gone = new Promise((r) => (notified = r));
      const c = await connect((uri) => notified(uri));
      const id = (await call(c, 'shell_execute', { command: ['head', 'k'] })).s.output_id;
      await c.subscribeResource({ uri: `shell-output://${id}/stdout` });
      await Promise.race([gone, new Promise((_, rej) => setTimeout(() => rej(new Error('no notification at expiry')), 20000))]);
      const { r } = await call(c, 'read_output', { id });
      assert(r.isError && text(r).includes('has expired'), `expired: ${text(r)}`);
    });
  },

  async 'a new HTTP session reads an old job'() {
    if (transport !== 'http') return 'skipped (stdio has one session per server)';
    const d = setup('restart', { 'ticker.sh': ticker });
    await withServer(d, { ALLOW_COMMANDS: join(d.tools, 'ticker.sh') }, async (connect) => {
      const a = await connect();
      const id = await startJob(a, { command: [join(d.tools, 'ticker.sh')] });
      await a.close();
      const b = await connect();
      const l = (await call(b, 'job_list', {})).s;
      assert(l.jobs.length === 1 && l.jobs[0].id === id, `list ${JSON.stringify(l)}`);
      assert((await call(b, 'read_output', { id, wait: 30 })).s.data.startsWith('tick 1'), 'read');
      assert((await waitJob(b, id)).state === 'exited', 'status');
    });
  },

  async 'unknown ids are refused clearly'() {
    const d = setup('unknown');
    await withServer(d, { ALLOW_COMMANDS: 'echo' }, async (connect) => {
      const c = await connect();
      for (const [tool, args, want] of [
        ['read_output', { id: 'zzzzzzzzzz' }, 'unknown output id "zzzzzzzzzz"'],
        ['job_status', { id: 'zzzzzzzzzz' }, 'unknown job id "zzzzzzzzzz"'],
        ['job_kill', { id: '../x' }, 'unknown job id'],
        ['shell_execute', { command: ['echo'], stdin_output_id: 'zzzzzzzzzz' }, 'unknown output id'],
      ]) {
        const { r } = await call(c, tool, args);
        assert(r.isError && text(r).includes(want), `${tool}: ${text(r)}`);
      }
      let err;
      await c.readResource({ uri: 'shell-output://zzzzzzzzzz/stdout' }).catch((e) => (err = e));
      assert(err && /not found/i.test(err.message), `resource: ${err}`);
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
const leftover = readdirSync(root).flatMap((n) => readdirSync(join(root, n, 'retain')));
if (leftover.length) {
  failures++;
  console.log(`FAIL ${transport}: retained outputs left after the servers exited: ${leftover}`);
}
rmSync(root, { recursive: true, force: true });
console.log(`jobs-e2e ${transport}: ${Object.keys(scenarios).length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
