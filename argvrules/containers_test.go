package argvrules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// containerRows are the table rows of docker, podman and kubectl: read-
// only commands only, global options that pick another daemon or config.
var containerRows = familyRows([]row{
	{a("docker", "images"), ""},
	{a("docker", "ps", "-a", "--format", "{{.ID}}"), ""},
	{a("docker", "version"), ""},
	{a("docker", "image", "ls"), ""},
	{a("docker", "compose", "-f", "c.yml", "ps"), ""},
	{a("docker", "logs", "-f", "web"), ""},
	{a("docker", "run", "-v", "/:/mnt", "--rm", "-it", "alpine", "chroot", "/mnt", "/bin/sh"), "docker.command"},
	{a("docker", "exec", "c", "sh"), "docker.command"},
	{a("docker", "create", "alpine"), "docker.command"},
	{a("docker", "start", "c"), "docker.command"},
	{a("docker", "build", "."), "docker.command"},
	{a("docker", "cp", "c0ffee:temp-file", "/tmp/outside/file"), "docker.command"},
	{a("docker", "compose", "up"), "docker.command"},
	{a("docker", "container", "run", "x"), "docker.command"},
	{a("docker", "-H", "tcp://evil:2375", "ps"), "docker.global-option"},
	{a("docker", "--host=unix:///x", "images"), "docker.global-option"},
	{a("docker", "--config", "dir", "images"), "docker.global-option"},
	{a("docker", "-c", "remote", "ps"), "docker.global-option"},
	{a("docker", "buildx", "build", "."), "docker.command"},
	{a("podman", "images"), ""},
	{a("podman", "ps", "-a"), ""},
	{a("podman", "run", "alpine"), "podman.command"},
	{a("podman", "--runtime", "./x", "ps"), "podman.global-option"},
	{a("podman", "unshare", "id"), "podman.command"},
	{a("kubectl", "get", "pods"), ""},
	{a("kubectl", "get", "pods", "-n", "kube-system", "-o", "wide"), ""},
	{a("kubectl", "-n", "x", "describe", "pod", "p"), ""},
	{a("kubectl", "logs", "-f", "deploy/web", "-c", "app"), ""},
	{a("kubectl", "config", "current-context"), ""},
	{a("kubectl", "auth", "can-i", "get", "pods"), ""},
	{a("kubectl", "exec", "-it", "p", "--", "sh"), "kubectl.command"},
	{a("kubectl", "run", "x", "--image=alpine"), "kubectl.command"},
	{a("kubectl", "debug", "node/x", "-it", "--image=busybox"), "kubectl.command"},
	{a("kubectl", "cp", "p:/x", "/tmp/x"), "kubectl.command"},
	{a("kubectl", "apply", "-f", "x.yaml"), "kubectl.command"},
	{a("kubectl", "create", "ns", "x"), "kubectl.command"},
	{a("kubectl", "port-forward", "p", "8080"), "kubectl.command"},
	{a("kubectl", "proxy"), "kubectl.command"},
	{a("kubectl", "attach", "p"), "kubectl.command"},
	{a("kubectl", "plugin", "list"), "kubectl.command"},
	{a("kubectl", "evil"), "kubectl.command"},
	{a("kubectl", "config", "set-context", "x"), "kubectl.command"},
	{a("kubectl", "--kubeconfig", "k.yaml", "get", "pods"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "--server=https://evil"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "--profile-output", "/tmp/p"), "kubectl.output-path"},
	{a("kubectl", "--frob", "x", "get"), "kubectl.unknown-option"},
	{a("kubectl", "-shttps://evil", "get", "pods"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "-As", "https://evil"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "-ojsonpath={.items[*].status}"), ""},
	{a("kubectl", "get", "pods", "-lapp=s"), ""},
	{a("kubectl", "-nkube-system", "get", "pods"), ""},
	{a("kubectl", "rollout", "status", "deploy/web"), ""},
	{a("kubectl", "rollout", "undo", "deploy/web"), "kubectl.command"},
})

func TestContainerRows(t *testing.T) { checkRows(t, containerRows) }

// TestKubectlHomeConfig: without HOME and KUBECONFIG for
// children, kubectl reads ./.kube/config; refused when the working
// directory has a .kube, allowed otherwise or with HOME passed.
func TestKubectlHomeConfig(t *testing.T) {
	dir := testDir(t)
	plain := pinCtx(t, dir)
	os.Mkdir(filepath.Join(t.TempDir(), ".kube"), 0o755)
	kdir := testDir(t)
	os.MkdirAll(filepath.Join(kdir, ".kube"), 0o755)
	withKube := pinCtx(t, kdir)
	argv := a("kubectl", "get", "pods")
	for _, tt := range []struct {
		ctx  Context
		env  []string
		want refusal.Code
	}{
		{plain, nil, ""},
		{withKube, nil, "kubectl.home-config"},
		{withKube, []string{"HOME="}, "kubectl.home-config"},
		{withKube, []string{"HOME=/home/u"}, ""},
		{withKube, []string{"KUBECONFIG=/etc/kube.conf"}, ""},
	} {
		c := tt.ctx
		c.Env = envLookup(tt.env)
		expectRule(t, c, argv, tt.want)
	}
}
