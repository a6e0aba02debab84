package validate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"
)

// objects maps a manifest's kind to the typed object it must decode into.
var objects = map[string]func() any{
	"Namespace":             func() any { return &corev1.Namespace{} },
	"Secret":                func() any { return &corev1.Secret{} },
	"PersistentVolumeClaim": func() any { return &corev1.PersistentVolumeClaim{} },
	"Service":               func() any { return &corev1.Service{} },
	"Deployment":            func() any { return &appsv1.Deployment{} },
	"NetworkPolicy":         func() any { return &networkingv1.NetworkPolicy{} },
}

// load decodes every manifest strictly, keyed by kind.
func load(t *testing.T) map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	out := map[string]any{}
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		js, err := yaml.YAMLToJSON(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var head struct{ Kind, APIVersion string }
		json.Unmarshal(js, &head)
		mk, ok := objects[head.Kind]
		if !ok {
			t.Fatalf("%s: kind %q is not one this test knows", f, head.Kind)
		}
		obj := mk()
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		if err := dec.Decode(obj); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		out[head.Kind] = obj
	}
	return out
}

func TestManifestsDecodeStrictly(t *testing.T) {
	objs := load(t)
	for kind := range objects {
		if objs[kind] == nil {
			t.Errorf("no %s manifest", kind)
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
