package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const containerPolicy = "container or cluster command that runs code or changes state"

// engineCLI describes a docker-compatible client: its family name and the
// read-only commands it may run, top-level (value nil) or as management
// command → allowed sub-commands.
type engineCLI struct {
	family   string
	readOnly map[string]map[string]bool
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// dockerCLI is docker 27/28's read-only surface ("docker --help" and each
// management command's --help): listing, inspection, logs and version.
var dockerCLI = &engineCLI{family: "docker", readOnly: map[string]map[string]bool{
	"images": nil, "ps": nil, "version": nil, "info": nil, "inspect": nil, "logs": nil,
	"history": nil, "top": nil, "port": nil, "diff": nil, "stats": nil, "search": nil,
	"events": nil, "help": nil,
	"image":     set("ls", "list", "inspect", "history"),
	"container": set("ls", "list", "ps", "inspect", "logs", "top", "port", "diff", "stats"),
	"volume":    set("ls", "list", "inspect"),
	"network":   set("ls", "list", "inspect"),
	"system":    set("df", "info", "events"),
	"context":   set("ls", "list", "show", "inspect"),
	"compose":   set("ps", "ls", "images", "version", "logs", "config", "top", "port"),
	"buildx":    set("ls", "version"),
	"node":      set("ls", "inspect", "ps"),
	"service":   set("ls", "inspect", "ps", "logs"),
	"stack":     set("ls", "ps", "services"),
	"plugin":    set("ls", "inspect"),
	"secret":    set("ls", "inspect"),
	"config":    set("ls", "inspect"),
}}

// podmanCLI is podman 4/5's read-only surface.
var podmanCLI = &engineCLI{family: "podman", readOnly: map[string]map[string]bool{
	"images": nil, "ps": nil, "version": nil, "info": nil, "inspect": nil, "logs": nil,
	"history": nil, "port": nil, "diff": nil, "stats": nil, "search": nil, "events": nil,
	"help":      nil,
	"image":     set("ls", "list", "inspect", "history", "exists", "tree"),
	"container": set("ls", "list", "ps", "inspect", "logs", "port", "diff", "stats", "exists"),
	"volume":    set("ls", "list", "inspect", "exists"),
	"network":   set("ls", "list", "inspect", "exists"),
	"system":    set("df", "info", "events"),
	"pod":       set("ls", "list", "ps", "inspect", "stats", "logs", "exists"),
	"machine":   set("ls", "list", "inspect", "info"),
	"secret":    set("ls", "list", "inspect", "exists"),
	"compose":   set("ps", "ls", "images", "version", "logs", "config", "port"),
}}

// composeValueFlags are docker compose options that take a separate value
// before its sub-command.
var composeValueFlags = set("-f", "--file", "-p", "--project-name", "--project-directory",
	"--env-file", "--profile", "--ansi", "--progress", "--parallel")

// check applies the engine rules: only -D/--debug, -l/--log-level,
// -v/--version and -h/--help before the command (every other global
// option selects a daemon, context, configuration or runtime program);
// then a read-only command.
func (e *engineCLI) check(argv []string) *Rejection {
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		w := argv[i]
		name, _, _, _ := longName(w)
		switch {
		case w == "-D" || w == "--debug" || w == "-v" || w == "--version" || w == "-h" || w == "--help":
		case w == "-l" || w == "--log-level":
			i++
		case strings.HasPrefix(w, "--log-level="):
		default:
			return familyRule(e.family, kindGlobalOption, containerPolicy).Reject(i, w,
				"argument %d %q is a %s global option other than --debug/--log-level; global options select the daemon (%s), context, client configuration (credential helper programs) or runtime programs", i, w, e.family, name)
		}
	}
	if i >= len(argv) {
		return nil
	}
	cmd := argv[i]
	subs, ok := e.readOnly[cmd]
	if !ok {
		return familyRule(e.family, kindCommand, containerPolicy).Reject(i, cmd,
			"argument %d %q is %s %s, which is not a read-only listing or inspection command (run, exec, create, start, build, cp, compose up, pull and the like execute code or change state)", i, cmd, e.family, cmd)
	}
	if subs == nil {
		return e.scanTail(argv, i+1)
	}
	j := i + 1
	for ; j < len(argv) && strings.HasPrefix(argv[j], "-"); j++ {
		if cmd == "compose" && composeValueFlags[argv[j]] {
			j++
		}
	}
	if j >= len(argv) {
		return nil // "docker image" alone prints usage
	}
	if !subs[argv[j]] {
		return familyRule(e.family, kindCommand, containerPolicy).Reject(j, argv[j],
			"argument %d %q is %s %s %s, which is not a read-only listing or inspection command", j, argv[j], e.family, cmd, argv[j])
	}
	return e.scanTail(argv, j+1)
}

// scanTail refuses daemon-selecting options after the command.
func (e *engineCLI) scanTail(argv []string, from int) *Rejection {
	for j := from; j < len(argv); j++ {
		w := argv[j]
		if w == "-H" || strings.HasPrefix(w, "--host") || strings.HasPrefix(w, "--context") ||
			w == "--config" || strings.HasPrefix(w, "--config=") || strings.HasPrefix(w, "--url") ||
			strings.HasPrefix(w, "--connection") || strings.HasPrefix(w, "--remote") {
			return familyRule(e.family, kindGlobalOption, containerPolicy).Reject(j, w,
				"argument %d %q selects a daemon endpoint or client configuration", j, w)
		}
	}
	return nil
}

// checkDocker is the recognizer of the docker client. It allows only read-only
// commands (images, ps, version, info, inspect, logs, history, top, port,
// diff, stats, search, events and the ls/inspect sub-commands of image,
// container, volume, network, system, context, compose ...) with no global
// option but --debug/--log-level; run, exec, create, start, build, cp,
// compose up, pull, login, plugins and every other command are refused, as
// are -H/--host, -c/--context and --config in any position.
func checkDocker(argv []string, ctx Context) *Rejection {
	return dockerCLI.check(argv)
}

// checkPodman is the recognizer of podman: the same rules as Docker over
// podman's read-only commands; every global option but --debug and
// --log-level is refused (they select a remote service, storage roots,
// or programs such as --runtime and --conmon).
func checkPodman(argv []string, ctx Context) *Rejection {
	return podmanCLI.check(argv)
}

// kubectlReadOnly are kubectl 1.3x's read-only commands; a non-nil set
// lists the sub-commands allowed.
var kubectlReadOnly = map[string]map[string]bool{
	"get": nil, "describe": nil, "logs": nil, "version": nil, "api-resources": nil,
	"api-versions": nil, "cluster-info": nil, "explain": nil, "top": nil, "events": nil,
	"wait": nil, "completion": nil, "options": nil, "help": nil,
	"auth":    set("can-i", "whoami"),
	"config":  set("view", "get-contexts", "current-context", "get-clusters", "get-users"),
	"rollout": set("status", "history"),
}

// kubectlValueFlags are kubectl global and common flags that take a
// separate value (kubectl options).
var kubectlValueFlags = set("-n", "--namespace", "--context", "--cluster", "--user",
	"--token", "--as", "--as-group", "--as-uid", "--request-timeout", "--certificate-authority",
	"--client-certificate", "--client-key", "--tls-server-name", "--profile", "-v", "--v",
	"--username", "--password", "--vmodule", "-o", "--output", "-l", "--selector", "-c",
	"--container", "-f", "--filename", "--field-selector", "--sort-by", "--tail", "--since", "--raw")

// kubectlRefusedFlags select another cluster endpoint or a configuration
// that can name credential programs (kubeconfig exec plugins).
var kubectlRefusedFlags = set("--kubeconfig", "-s", "--server", "--kuberc")

// kubectlOutputFlags name files or directories kubectl writes.
var kubectlOutputFlags = map[string]redirect.Kind{
	"--profile-output": redirect.File, "--log-file": redirect.File, "--cache-dir": redirect.Dir,
	"--output-directory": redirect.Dir, "--log-dir": redirect.Dir,
}

// checkKubectl is the recognizer of kubectl. Allowed commands are read-only:
// get, describe, logs, version, api-resources, api-versions, cluster-info,
// explain, top, events, wait, auth can-i/whoami, config
// view/get-contexts/current-context/...; exec, run, debug, cp, apply,
// create, port-forward, proxy, attach, plugin, edit, delete, patch,
// kustomize, every other command and every plugin (kubectl-NAME on PATH)
// are refused, as are --kubeconfig, -s/--server and --kuberc anywhere.
// --profile-output, --log-file, --cache-dir, --log-dir and
// --output-directory must stay inside the working directory. The default
// kubeconfig, including its credential exec plugins, is delegated.
func checkKubectl(argv []string, ctx Context) *Rejection {
	var ops []int
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			ops = append(ops, j)
			continue
		}
		flag, value, hasValue := strings.Cut(w, "=")
		if kubectlRefusedFlags[flag] || kubectlClusterServer(w) {
			return ruleKubectlGlobalOption.Reject(j, w,
				"argument %d %q selects another API server or a kubeconfig/kuberc file, which can name credential programs and aliases", j, w)
		}
		if kind, ok := kubectlOutputFlags[flag]; ok {
			word, at := w, j
			if !hasValue && j+1 < len(argv) {
				j++
				value, word = argv[j], w+" "+argv[j]
			}
			if r := outputPath(ctx, "kubectl", at, word, value, kind); r != nil {
				return r
			}
			continue
		}
		if !hasValue && kubectlValueFlags[flag] {
			j++
			continue
		}
		if len(ops) == 0 && !hasValue && !strings.HasPrefix(w, "--") && len(w) > 2 {
			continue // short cluster such as -oyaml, -Ao
		}
		if len(ops) == 0 && !hasValue && !kubectlBoolFlag(flag) {
			return ruleKubectlUnknownOption.Reject(j, w,
				"argument %d %q comes before the command and may take the next word as its value, so the command cannot be known (write it as %s=VALUE or after the command)", j, w, flag)
		}
	}
	if r := kubectlHomeConfig(ctx); r != nil {
		return r
	}
	if len(ops) == 0 {
		return nil
	}
	cmd := argv[ops[0]]
	subs, ok := kubectlReadOnly[cmd]
	if !ok {
		return ruleKubectlCommand.Reject(ops[0], cmd,
			"argument %d %q is kubectl %s, which is not a read-only command (exec, run, debug, cp, apply, create, port-forward, proxy, attach, plugins and the like run code or change state)", ops[0], cmd, cmd)
	}
	if subs != nil && len(ops) > 1 && !subs[argv[ops[1]]] {
		return ruleKubectlCommand.Reject(ops[1], argv[ops[1]],
			"argument %d %q is kubectl %s %s, which is not a read-only command", ops[1], argv[ops[1]], cmd, argv[ops[1]])
	}
	return nil
}

// kubectlHomeConfig refuses kubectl when it would read its configuration
// from the working directory by accident: without KUBECONFIG and with
// HOME unset or empty in the child environment, client-go's
// RecommendedHomeFile is the relative path ".kube/config" (homedir.HomeDir
// is $HOME on Unix, with no passwd fallback), so a .kube directory in the
// working directory, which requests can write, supplies the kubeconfig
// and its exec credential plugins (and kuberc aliases).
func kubectlHomeConfig(ctx Context) *Rejection {
	if v, ok := ctx.getenv("KUBECONFIG"); ok && v != "" {
		return nil
	}
	if v, ok := ctx.getenv("HOME"); ok && v != "" {
		return nil
	}
	if ctx.Dir == nil {
		return nil
	}
	if _, err := ctx.Dir.Root().Lstat(".kube"); err != nil {
		return nil
	}
	return ruleKubectlHomeConfig.Reject(0, "kubectl",
		"argument 0 \"kubectl\": with HOME unset in the child environment kubectl reads ./.kube/config from the working directory as its kubeconfig (exec credential plugins run programs); pass HOME or KUBECONFIG to children, or remove .kube")
}

// kubectlValueShorthands are kubectl shorthands that take a value (the
// rest of a cluster after them is that value).
var kubectlValueShorthands = set("n", "o", "l", "c", "f", "v", "L", "k", "e", "i", "t", "r")

// kubectlClusterServer reports whether the single-dash cluster w reaches
// the -s (--server) shorthand the way pflag reads it: shorthands are
// taken left to right until one that takes a value, which consumes the
// rest. Unknown letters are assumed to be flags (conservative).
func kubectlClusterServer(w string) bool {
	if strings.HasPrefix(w, "--") || len(w) < 3 {
		return false
	}
	for _, c := range w[1:] {
		switch {
		case c == 's':
			return true
		case kubectlValueShorthands[string(c)]:
			return false
		}
	}
	return false
}

// kubectlBoolFlags are the common kubectl flags that take no value.
var kubectlBoolFlags = set("-A", "--all-namespaces", "-w", "--watch", "--insecure-skip-tls-verify",
	"--match-server-version", "--warnings-as-errors", "-h", "--help", "--show-labels",
	"--no-headers", "--previous", "-p", "--timestamps", "-q", "--quiet")

// kubectlBoolFlag reports whether flag is known to take no value.
func kubectlBoolFlag(flag string) bool { return kubectlBoolFlags[flag] }
