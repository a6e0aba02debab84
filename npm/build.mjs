#!/usr/bin/env node
// Builds the npm packages from a GoReleaser dist/ directory: the main
// package (this directory: the launcher, with an optional dependency on
// each platform package at the same version) and one package per
// platforms.json row holding that platform's binary, with "os" and "cpu"
// set so that npm installs only the one matching the user's machine. The
// pattern esbuild uses: no install script, nothing downloaded at install.
//
// Usage: node npm/build.mjs DIST OUT   (writes OUT/<package dirs> and OUT/*.tgz)
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [dist, out] = process.argv.slice(2);
if (!dist || !out) {
  console.error('usage: node npm/build.mjs DIST OUT');
  process.exit(64);
}
const read = (f) => JSON.parse(readFileSync(f, 'utf8'));
const main = read(path.join(here, 'package.json'));
const platforms = read(path.join(here, 'platforms.json'));
const metadata = read(path.join(dist, 'metadata.json'));
const artifacts = read(path.join(dist, 'artifacts.json'));

// npm drops semver build metadata ("+abc123"), so a snapshot's commit
// becomes a prerelease part: 0.0.1-snapshot+abc123 -> 0.0.1-snapshot.abc123.
const version = metadata.version.replace('+', '.');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const pack = (dir) => execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }).trim();

main.version = version;
main.optionalDependencies = {};
for (const p of platforms) {
  const name = `${main.name}-${p.os}-${p.cpu}`;
  const bin = artifacts.find((a) => a.type === 'Binary' && a.goos === p.goos && a.goarch === p.goarch);
  if (!bin) throw new Error(`dist has no binary for ${p.goos}/${p.goarch}`);
  const dir = path.join(out, name.replace('/', '+'));
  const exe = p.os === 'win32' ? 'mcp-shell-server.exe' : 'mcp-shell-server';
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  copyFileSync(bin.path, path.join(dir, 'bin', exe));
  chmodSync(path.join(dir, 'bin', exe), 0o755);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name, version, description: `The ${p.os}-${p.cpu} binary of ${main.name}`,
    repository: main.repository,
    os: [p.os], cpu: [p.cpu], files: ['bin/'], preferUnplugged: true,
  }, null, 2) + '\n');
  main.optionalDependencies[name] = version;
  console.log(pack(dir));
}

const mainDir = path.join(out, main.name.replace('/', '+'));
mkdirSync(path.join(mainDir, 'bin'), { recursive: true });
copyFileSync(path.join(here, 'bin', 'mcp-shell-server.js'), path.join(mainDir, 'bin', 'mcp-shell-server.js'));
chmodSync(path.join(mainDir, 'bin', 'mcp-shell-server.js'), 0o755);
copyFileSync(path.join(here, 'platforms.json'), path.join(mainDir, 'platforms.json'));
copyFileSync(path.join(here, 'README.md'), path.join(mainDir, 'README.md'));
writeFileSync(path.join(mainDir, 'package.json'), JSON.stringify(main, null, 2) + '\n');
console.log(pack(mainDir));
