#!/usr/bin/env node
// Starts the prebuilt mcp-shell-server binary of this platform, which npm
// installed as the optional dependency @seed-b63acb1b/mcp-shell-server-OS-CPU
// (the package matching process.platform and process.arch; npm skips the
// others). stdin, stdout and stderr are the binary's own, so MCP flows
// straight through; signals are passed on and the exit status comes back.
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');
const platforms = require('../platforms.json');
const { name } = require('../package.json');

function binaryPath() {
  if (process.env.MCP_SHELL_SERVER_BINARY) return process.env.MCP_SHELL_SERVER_BINARY;
  const p = platforms.find((p) => p.os === process.platform && p.cpu === process.arch);
  if (!p) {
    throw new Error(`no prebuilt binary for ${process.platform}-${process.arch}; ` +
      'install from source: go install github.com/seed-b63acb1b/mcp-shell-server/cmd/mcp-shell-server@latest');
  }
  const pkg = `${name}-${p.os}-${p.cpu}`;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`the package ${pkg} is not installed: it is an optional dependency, so an install ` +
      'with --no-optional or --omit=optional skips it; reinstall without that flag');
  }
  return path.join(dir, 'bin', p.os === 'win32' ? 'mcp-shell-server.exe' : 'mcp-shell-server');
}

let bin;
try {
  bin = binaryPath();
} catch (err) {
  process.stderr.write(`mcp-shell-server: ${err.message}\n`);
  process.exit(2);
}

const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig));
}
child.on('error', (err) => {
  process.stderr.write(`mcp-shell-server: cannot start ${bin}: ${err.message}\n`);
  process.exit(2);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
