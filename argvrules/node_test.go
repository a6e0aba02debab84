package argvrules

import (
	"testing"
)

// nodeRows are the table rows of npm, npx, pnpm and yarn: exec commands
// and options, script shells, config and script writes, output paths.
var nodeRows = familyRows([]row{
	{a("npm", "test"), ""},
	{a("npm", "ci"), ""},
	{a("npm", "install"), ""},
	{a("npm", "install", "--global", "typescript"), ""},
	{a("npm", "install", "--save-dev", "vitest"), ""},
	{a("npm", "run", "build"), ""},
	{a("npm", "run", "test", "--", "--watch=false"), ""},
	{a("npm", "init", "-y"), ""},
	{a("npm", "--prefix", "web", "run", "lint"), ""},
	{a("npm", "config", "get", "registry"), ""},
	{a("npm", "exec", "/bin/sh"), "npm.exec-command"},
	{a("npm", "exec", "-c", "touch /tmp/PWNED"), "npm.exec-command"},
	{a("npm", "x", "cowsay"), "npm.exec-command"},
	{a("npm", "--prefix", "web", "exec", "x"), "npm.exec-command"},
	{a("npm", "run", "t", "--script-shell=./payload.sh"), "npm.exec-option"},
	{a("npm", "--script-shell", "./x", "test"), "npm.exec-option"},
	{a("npm", "test", "--script-sh=./x"), "npm.exec-option"},
	{a("npm", "install", "--node-options=--require ./x.js"), "npm.exec-option"},
	{a("npm", "install", "--userconfig", "x.npmrc"), "npm.exec-option"},
	{a("npm", "init", "vite"), "npm.exec-command"},
	{a("npm", "create", "vite@latest", "app"), "npm.exec-command"},
	{a("npm", "explore", "x", "--", "sh"), "npm.exec-command"},
	{a("npm", "edit", "x"), "npm.exec-command"},
	{a("npm", "docs", "x"), "npm.exec-command"},
	{a("npm", "config", "edit"), "npm.exec-command"},
	{a("npm", "config", "set", "script-shell=./x"), "npm.config-write"},
	{a("npm", "set", "script-shell", "./x"), "npm.config-write"},
	{a("npm", "exe", "x"), "npm.exec-command"},
	{a("npm", "explo", "x"), "npm.exec-command"},
	{a("npm", "ex", "x"), "npm.exec-command"},
	{a("npm", "cre", "vite"), "npm.exec-command"},
	{a("npm", "in", "lodash"), ""},
	{a("npm", "i"), ""},
	{a("npm", "t"), ""},
	{a("npm", "r", "lodash"), ""},
	{a("npm", "help"), ""},
	{a("npm", "-g", "install", "x"), ""},
	{a("npm", "--global", "install", "docs"), ""},
	{a("npm", "--loglevel", "exec", "install"), "npm.exec-command"},
	{a("npm", "-script-shell=./x", "test"), "npm.exec-option"},
	{a("npx", "cowsay"), "npx.categorical"},
	{a("npx", "--version"), "npx.categorical"},
	{a("pnpm", "install"), ""},
	{a("pnpm", "run", "build"), ""},
	{a("pnpm", "--filter", "web", "run", "build"), ""},
	{a("pnpm", "exec", "sh"), "pnpm.exec-command"},
	{a("pnpm", "dlx", "x"), "pnpm.exec-command"},
	{a("pnpm", "create", "vite"), "pnpm.exec-command"},
	{a("pnpm", "sh", "-c", "id"), "pnpm.unknown-command"},
	{a("pnpm", "test", "--config.script-shell=./x"), "pnpm.exec-option"},
	{a("yarn"), ""},
	{a("yarn", "install", "--frozen-lockfile"), ""},
	{a("yarn", "build"), ""},
	{a("yarnpkg", "test"), ""},
	{a("yarn", "dlx", "x"), "yarn.exec-command"},
	{a("yarn", "exec", "id"), "yarn.exec-command"},
	{a("yarn", "node", "-e", "1"), "yarn.exec-command"},
	{a("yarn", "create", "react-app", "x"), "yarn.exec-command"},
	{a("yarn", "--use-yarnrc", "x", "install"), "yarn.exec-option"},
	{a("npm", "pack", "--pack-destination", "planted"), "npm.output-path"},
	{a("npm", "install", "--prefix", "out"), "npm.output-path"},
	{a("npm", "pack"), ""},
	{a("npm", "--registry", "https://r", "--loglevel", "silent", "exec", "-c", "id"), "npm.exec-command"},
	{a("npm", "--cache", "c", "--tag", "t", "--before", "2020-01-01", "x", "cowsay"), "npm.exec-command"},
	{a("npm", "--", "exec", "id"), "npm.exec-command"},
	{a("npm", "-dd", "exec", "id"), "npm.exec-command"},
	{a("npm", "test", "-qc", "id"), "npm.exec-option"},
	{a("npm", "pkg", "set", "scripts.test=touch /tmp/p"), "npm.exec-command"},
	{a("npm", "pkg", "set", "scripts[postinstall]=id"), "npm.exec-command"},
	{a("npm", "pkg", "set", "version=1.0.1"), ""},
	{a("npm", "run", "e2e", "--", "--browser", "chrome"), ""},
	{a("npm", "test", "--", "--script-shell", "x"), ""},
	{a("npm", "ci", "--cache", ".npm", "--prefer-offline"), ""},
	{a("npm", "pack", "--pack-destination", "dist"), ""},
	{a("npm", "-C", "web", "install"), ""},
	{a("npm", "install", "--cache", ".npm-cache"), ""},
	{a("npm", "pack", "--pack-destination", "/tmp/x"), "npm.output-path"},
	{a("npm", "pack", "--pack-destination=../x"), "npm.output-path"},
	{a("npm", "pack", "--pack-dest=/tmp/x"), "npm.output-path"},
	{a("npm", "install", "--logs-dir", "/tmp/logs"), "npm.output-path"},
	{a("npm", "install", "--cache=/tmp/cache"), "npm.output-path"},
	{a("npm", "install", "--prefix", "/tmp/x"), "npm.output-path"},
	{a("npm", "install", "-prefix=/tmp/x"), "npm.output-path"},
	{a("npm", "install", "--config.prefix=/tmp/x"), "npm.output-path"},
	{a("npm", "-C", "/tmp/x", "install"), "npm.output-path"},
	{a("npm", "-gC", "/tmp/x", "install"), "npm.output-path"},
	{a("npm", "--prefix", "out", "install"), "npm.output-path"}, // out -> /tmp
	{a("pnpm", "-C", "web", "install"), ""},
	{a("pnpm", "--dir", "web", "run", "build"), ""},
	{a("pnpm", "add", "--global", "typescript"), ""},
	{a("pnpm", "install", "--store-dir", ".pnpm-store"), ""},
	{a("pnpm", "-C", "/tmp/x", "run", "t"), "pnpm.output-path"},
	{a("pnpm", "--dir=../x", "install"), "pnpm.output-path"},
	{a("pnpm", "install", "--store-dir", "/tmp/store"), "pnpm.output-path"},
	{a("pnpm", "install", "--store=/tmp/store"), "pnpm.output-path"},
	{a("pnpm", "pack", "--pack-destination", "/tmp/x"), "pnpm.output-path"},
	{a("yarn", "--cwd", "web", "build"), ""},
	{a("yarn", "pack", "--filename", "dist/x.tgz"), ""},
	{a("yarn", "--cwd", "/tmp/x", "run", "t"), "yarn.output-path"},
	{a("yarn", "install", "--cache-folder=/tmp/c"), "yarn.output-path"},
	{a("yarn", "pack", "--filename", "/tmp/x.tgz"), "yarn.output-path"},
	{a("yarn", "pack", "--out", "../x.tgz"), "yarn.output-path"},
})

func TestNodeRows(t *testing.T) { checkRows(t, nodeRows) }

// TestNodeConfigWritesRefused: config writes land in the user's
// configuration outside the working directory and steer later commands.
func TestNodeConfigWritesRefused(t *testing.T) {
	for _, argv := range [][]string{
		{"npm", "config", "set", "registry", "http://127.0.0.1:9/"},
		{"npm", "set", "registry=http://127.0.0.1:9/"},
		{"npm", "config", "delete", "registry"},
		{"pnpm", "config", "set", "store-dir", "x"},
		{"yarn", "config", "set", "registry", "x"},
	} {
		if r := recOf(famName(argv[0]))(argv, pinCtx(t, t.TempDir())); r == nil {
			t.Errorf("%q allowed", argv)
		}
	}
	for _, argv := range [][]string{{"npm", "config", "get", "registry"}, {"npm", "config", "list"}} {
		if r := recOf("npm")(argv, pinCtx(t, t.TempDir())); r != nil {
			t.Errorf("%q refused: %s", argv, r.Message)
		}
	}
}
