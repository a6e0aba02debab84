package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const opensslPolicy = "openssl external code or output"

// OpenSSL 3.0's apps parse options with apps/lib/opt.c opt_next: "-name"
// or "--name", exact names only (no abbreviations), "-name=value" or the
// next word as the value; the first word that is not an option ends them.
// The option tables below were taken from "openssl CMD -help" of OpenSSL
// 3.0.19 (opt_help prints each row's valtype: "outfile" for '>', "dir"
// for '/'), over every standard command.

// opensslLoadCode are the options that load a shared library the request
// names: -engine ID (an ID that is no engine is loaded as a path by the
// dynamic engine, apps/lib/engine.c try_load_engine), and the engine
// variants of req and s_client; -provider-path makes every -provider NAME
// a NAME.so in that directory.
var opensslLoadCode = map[string]string{
	"engine":            "loads an engine: an ID that names no engine is loaded as a shared library by path (apps/lib/engine.c try_load_engine)",
	"keygen_engine":     "loads an engine for key generation, by ID or path",
	"ssl_client_engine": "loads an engine for the TLS client key, by ID or path",
	"provider-path":     "sets the directory providers are loaded from as shared libraries",
}

// opensslOutputs are the options whose value is a file (or, outdir, a
// directory) openssl writes: valtype '>' and ca's -outdir.
var opensslOutputs = map[string]redirect.Kind{
	"out": redirect.File, "keyout": redirect.File, "writerand": redirect.File, "msgfile": redirect.File,
	"keylogfile": redirect.File, "sess_out": redirect.File, "certsout": redirect.File, "outdir": redirect.Dir,
}

// opensslRefusedCommands load code as their job: engine loads and
// configures engines (-pre SO_PATH:FILE), fipsinstall loads the FIPS
// module it is given.
var opensslRefusedCommands = map[string]string{
	"engine":      "loads and configures engines (-pre SO_PATH:FILE loads a shared library)",
	"fipsinstall": "loads the provider module it installs",
}

// opensslProviderName is a provider name openssl looks up among its
// built-in providers and the modules of MODULESDIR (default, base, null,
// legacy, fips, or another module name): not a path.
var opensslProviderName = lazyre.New(`^[A-Za-z0-9_-]+$`)

// opensslModuleConfig finds what makes a configuration file load modules
// (conf_mod.c CONF_modules_load reads the openssl_conf key; engines and
// providers sections name shared libraries by dynamic_path and module),
// and .include, which reads another file that could. Searched in the raw
// text, case-insensitively; key names take no escapes (checked with
// OpenSSL 3.0.19: "openssl\_conf" loads nothing).
var opensslModuleConfig = lazyre.New(`(?i)openssl_conf|\.include`)

// checkOpenssl is the recognizer of the openssl command (OpenSSL 3.0).
// Every word that is an option by opt_next's rules is judged, wherever it
// is (a value that looks like an option is judged too, conservatively):
// the engine options and -provider-path are refused, -provider must name
// a provider, not a path, -config must be a file inside the working
// directory that loads no modules, and output files are contained;
// x509's serial file (-CAserial, or the .srl next to -CA) is an output
// too. openssl without a command (the interactive prompt, which reads
// commands from standard input), engine and fipsinstall are refused.
// Delegated: the files ca writes by its configuration (database, serial,
// new_certs_dir), reads, and the network of s_client and s_server.
func checkOpenssl(argv []string, ctx Context) *Rejection {
	if len(argv) < 2 {
		return ruleOpensslCommand.Reject(0, argv0(argv), "openssl without a command reads commands from standard input, which the policy cannot inspect")
	}
	cmd := argv[1]
	if why, ok := opensslRefusedCommands[cmd]; ok {
		return ruleOpensslLoadCode.Reject(1, cmd, "argument 1 %q is openssl %s, which %s", cmd, cmd, why)
	}
	var ca, caSerial string
	for i := 2; i < len(argv); i++ {
		w := argv[i]
		if len(w) < 2 || w[0] != '-' || w == "--" {
			continue
		}
		name, value, attached := strings.Cut(strings.TrimPrefix(w[1:], "-"), "=")
		v, vi := value, i
		if !attached && i+1 < len(argv) {
			v, vi = argv[i+1], i+1
		}
		word := w
		if vi != i {
			word = w + " " + v
		}
		if why, ok := opensslLoadCode[name]; ok {
			return ruleOpensslLoadCode.Reject(i, w, "argument %d %q %s", i, w, why)
		}
		switch name {
		case "provider":
			if !opensslProviderName.MatchString(v) {
				return ruleOpensslLoadCode.Reject(i, w, "argument %d %q loads the provider %q, which is not a provider name but a path to a shared library", i, word, v)
			}
		case "config":
			if rej := opensslConfig(ctx, i, w, v); rej != nil {
				return rej
			}
		case "CA":
			ca = v
		case "CAserial":
			caSerial = v
		}
		if kind, ok := opensslOutputs[name]; ok && !redirect.Harmless(v) {
			if rej := outputPath(ctx, "openssl", i, word, v, kind); rej != nil {
				return rej
			}
		}
	}
	if cmd == "x509" && ca != "" {
		if caSerial == "" {
			caSerial = opensslSerialName(ca)
		}
		if rej := outputPath(ctx, "openssl", 1, cmd, caSerial, redirect.File); rej != nil {
			return rej
		}
	}
	return nil
}

// opensslSerialName is the serial file x509 reads and rewrites when it
// signs with -CA and no -CAserial (apps/x509.c: the CA file name with its
// extension replaced by .srl).
func opensslSerialName(ca string) string {
	base := path.Base(ca)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return strings.TrimSuffix(ca, base[i:]) + ".srl"
	}
	return ca + ".srl"
}

// opensslConfig reads a -config file (req, ca, genpkey, cms ... load the
// modules it names: apps/lib/apps.c app_load_modules) through the working
// directory and refuses it when it can load modules.
func opensslConfig(ctx Context, i int, w, name string) *Rejection {
	text, err := readInside(ctx, name)
	if err != nil {
		return ruleOpensslLoadCode.Reject(i, w,
			"argument %d %q reads the configuration %q, which can load engines and providers (shared libraries); the policy reads it only inside the working directory and could not (%v)", i, w, name, err)
	}
	if m := opensslModuleConfig.FindStringIndex(text); m != nil {
		return ruleOpensslLoadCode.Reject(i, w,
			"argument %d %q reads the configuration %q, whose %q (byte offset %d) makes openssl load modules (engines and providers are shared libraries) or read another file", i, w, name, text[m[0]:m[1]], m[0])
	}
	return nil
}

func argv0(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return argv[0]
}
