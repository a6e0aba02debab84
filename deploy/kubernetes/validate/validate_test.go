package validate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// objects maps a manifest's kind to the typed object it must decode into.
var objects = map[string]func() any{
	"Namespace":             func() any { return &corev1.Namespace{} },
	"Secret":                func() any { return &corev1.Secret{} },
	"PersistentVolumeClaim": func() any { return &corev1.PersistentVolumeClaim{} },
	"Service":               func() any { return &corev1.Service{} },
	"Deployment":            func() any { return &appsv1.Deployment{} },
	"StatefulSet":           func() any { return &appsv1.StatefulSet{} },
	"NetworkPolicy":         func() any { return &networkingv1.NetworkPolicy{} },
}

// testToken is what the tests put in the token file the kustomization
// generates its Secret from.
const testToken = "q7Vd2mXk9LpR4wTz8bNcY3hJ6sFa"

// build runs the kustomization as kubectl apply -k would, on a copy of the
// directory holding a token file (with token "" it holds none), and returns
// its output documents in order.
func build(t *testing.T, token string) ([]string, error) {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join("..", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if token != "" {
		if err := os.WriteFile(filepath.Join(dir, "token"), []byte(token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, err
	}
	var docs []string
	for _, r := range m.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(y))
	}
	return docs, nil
}

// object is one decoded document of the kustomization's output.
type object struct {
	kind string
	obj  any
}

// load builds the kustomization and decodes every output document
// strictly (unknown or misspelled fields fail), keyed by kind.
func load(t *testing.T) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, o := range loadOrdered(t) {
		out[o.kind] = o.obj
	}
	return out
}

func loadOrdered(t *testing.T) []object {
	t.Helper()
	docs, err := build(t, testToken)
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	var out []object
	for _, doc := range docs {
		out = append(out, decodeStrict(t, "the kustomization's output", doc))
	}
	return out
}

// decodeStrict decodes one YAML document into the typed object of its
// kind; an unknown kind, an unknown or misspelled field fails the test.
func decodeStrict(t *testing.T, where, doc string) object {
	t.Helper()
	js, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var head struct{ Kind string }
	json.Unmarshal(js, &head)
	mk, ok := objects[head.Kind]
	if !ok {
		t.Fatalf("%s: kind %q is not one this test knows", where, head.Kind)
	}
	obj := mk()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		t.Errorf("%s %s: %v", where, head.Kind, err)
	}
	return object{head.Kind, obj}
}

func TestManifestsDecodeStrictly(t *testing.T) {
	objs := load(t)
	for kind := range objects {
		if objs[kind] == nil && kind != "StatefulSet" { // the scale-out variant, in docs/deploy.md
			t.Errorf("no %s in the kustomization's output", kind)
		}
	}
	kust, err := os.ReadFile(filepath.Join("..", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("..", "*.yaml"))
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" && !bytes.Contains(kust, []byte(b)) {
			t.Errorf("kustomization.yaml does not list %s", b)
		}
	}
}

// TestNoPlaceholderSecret: the only Secret kubectl apply -k would create
// is generated from the operator's token file, holds exactly its token,
// is what the Deployment mounts, and comes after the Namespace it lives
// in; no manifest carries a Secret of its own (a committed placeholder
// would overwrite the operator's Secret on every apply).
func TestNoPlaceholderSecret(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "*.yaml"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte("kind: Secret")) {
			t.Errorf("%s holds a Secret: generate it from the token file instead", f)
		}
	}
	var secrets []*corev1.Secret
	namespaceAt, secretAt := -1, -1
	for i, o := range loadOrdered(t) {
		switch o.kind {
		case "Namespace":
			namespaceAt = i
		case "Secret":
			secrets, secretAt = append(secrets, o.obj.(*corev1.Secret)), i
		}
	}
	if len(secrets) != 1 {
		t.Fatalf("%d Secrets in the output, want the generated one", len(secrets))
	}
	s := secrets[0]
	if got := strings.TrimSpace(string(s.Data["token"])); got != testToken || len(s.StringData) != 0 || len(s.Data) != 1 {
		t.Errorf("the Secret holds %q (and %d other values), want only the token file's content", got, len(s.Data)+len(s.StringData)-1)
	}
	if namespaceAt < 0 || secretAt < namespaceAt {
		t.Errorf("the Secret (document %d) is not created after its Namespace (document %d)", secretAt, namespaceAt)
	}
	d := load(t)["Deployment"].(*appsv1.Deployment)
	mounted := false
	for _, v := range d.Spec.Template.Spec.Volumes {
		mounted = mounted || v.Secret != nil && v.Secret.SecretName == s.Name
	}
	if !mounted {
		t.Errorf("the Deployment does not mount the generated Secret %s", s.Name)
	}
}

// TestBuildNeedsTheTokenFile: without the operator's token file the
// kustomization does not build, so nothing is applied with a made-up token.
func TestBuildNeedsTheTokenFile(t *testing.T) {
	if _, err := build(t, ""); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("kustomize build without a token file: %v, want an error naming it", err)
	}
}

func TestDeploymentHardening(t *testing.T) {
	d := load(t)["Deployment"].(*appsv1.Deployment)
	pod := d.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	sc, psc := c.SecurityContext, pod.SecurityContext
	for what, ok := range map[string]bool{
		"runAsNonRoot":                    psc != nil && psc.RunAsNonRoot != nil && *psc.RunAsNonRoot,
		"seccomp RuntimeDefault":          psc != nil && psc.SeccompProfile != nil && psc.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault,
		"readOnlyRootFilesystem":          sc != nil && sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem,
		"allowPrivilegeEscalation false":  sc != nil && sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation,
		"capabilities drop ALL":           sc != nil && sc.Capabilities != nil && slices.Contains(sc.Capabilities.Drop, "ALL"),
		"no service account token":        pod.AutomountServiceAccountToken != nil && !*pod.AutomountServiceAccountToken,
		"resource limits":                 c.Resources.Limits.Cpu() != nil && !c.Resources.Limits.Memory().IsZero(),
		"readiness probe on /healthz":     c.ReadinessProbe != nil && c.ReadinessProbe.HTTPGet != nil && c.ReadinessProbe.HTTPGet.Path == "/healthz",
		"liveness probe on /healthz":      c.LivenessProbe != nil && c.LivenessProbe.HTTPGet != nil && c.LivenessProbe.HTTPGet.Path == "/healthz",
		"token from a file, not the env":  env(c, "MCP_SHELL_HTTP_TOKEN_FILE") != "" && env(c, "MCP_SHELL_HTTP_TOKEN") == "",
		"http transport on all addresses": env(c, "MCP_SHELL_TRANSPORT") == "http" && strings.HasPrefix(env(c, "MCP_SHELL_HTTP_ADDR"), "0.0.0.0:"),
	} {
		if !ok {
			t.Errorf("deployment: %s does not hold", what)
		}
	}
	tokenDir := filepath.Dir(env(c, "MCP_SHELL_HTTP_TOKEN_FILE"))
	if !mountedFrom(pod, c, tokenDir, func(v corev1.Volume) bool { return v.Secret != nil }) {
		t.Errorf("the token file's directory %s is not a Secret volume", tokenDir)
	}
	if !mountedFrom(pod, c, "/workspace", func(v corev1.Volume) bool { return v.PersistentVolumeClaim != nil }) {
		t.Error("/workspace is not a PersistentVolumeClaim")
	}
}

func TestEgressDeniedByDefault(t *testing.T) {
	np := load(t)["NetworkPolicy"].(*networkingv1.NetworkPolicy)
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) || len(np.Spec.Egress) != 0 {
		t.Errorf("egress is not denied by default: types %v, rules %v", np.Spec.PolicyTypes, np.Spec.Egress)
	}
}

func env(c corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func mountedFrom(pod corev1.PodSpec, c corev1.Container, path string, kind func(corev1.Volume) bool) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath != path {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name {
				return kind(v)
			}
		}
	}
	return false
}

// TestDockerfileImagesPinned: every base image of the Dockerfiles (the
// source build and the release image GoReleaser builds) names an exact
// release (a tag with a version number, optionally a digest), not a
// floating tag such as bookworm-slim or latest that changes under a
// rebuild, and both runtime stages use the same one.
func TestDockerfileImagesPinned(t *testing.T) {
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:[a-z-]*[0-9]+\.[0-9]+(\.[0-9]+)?(-[a-z0-9-]+)?(@sha256:[0-9a-f]{64})?$`)
	var runtimes []string
	for _, name := range []string{"Dockerfile", "Dockerfile.release"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		last := ""
		for _, line := range strings.Split(string(b), "\n") {
			fields := strings.Fields(line)
			if len(fields) < 2 || fields[0] != "FROM" {
				continue
			}
			last = fields[1]
			if !pinned.MatchString(fields[1]) {
				t.Errorf("%s: FROM %s is not an exact release", name, fields[1])
			}
		}
		if last == "" {
			t.Fatalf("%s has no FROM line", name)
		}
		runtimes = append(runtimes, last)
	}
	if runtimes[0] != runtimes[1] {
		t.Errorf("the runtime images differ: Dockerfile %s, Dockerfile.release %s", runtimes[0], runtimes[1])
	}
}

// TestDeployDocManifests decodes the YAML blocks of docs/deploy.md (the
// scale-out StatefulSet and its headless Service) strictly, as the
// recipe's own manifests are, and checks that the StatefulSet gives every
// replica its own workspace volume.
func TestDeployDocManifests(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]any{}
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		for _, doc := range strings.Split(m[1], "\n---\n") {
			o := decodeStrict(t, "docs/deploy.md", doc)
			kinds[o.kind] = o.obj
		}
	}
	ss, ok := kinds["StatefulSet"].(*appsv1.StatefulSet)
	if !ok {
		t.Fatal("docs/deploy.md has no StatefulSet")
	}
	if len(ss.Spec.VolumeClaimTemplates) != 1 || !mountedAt(ss.Spec.Template.Spec.Containers[0], ss.Spec.VolumeClaimTemplates[0].Name, "/workspace") {
		t.Error("the StatefulSet does not give each replica its own /workspace volume")
	}
	if svc, ok := kinds["Service"].(*corev1.Service); !ok || svc.Spec.ClusterIP != corev1.ClusterIPNone || svc.Name != ss.Spec.ServiceName {
		t.Error("the StatefulSet's Service is not headless or not its serviceName")
	}
}

func mountedAt(c corev1.Container, volume, path string) bool {
	for _, m := range c.VolumeMounts {
		if m.Name == volume && m.MountPath == path {
			return true
		}
	}
	return false
}
