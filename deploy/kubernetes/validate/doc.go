// Package validate checks the Kubernetes manifests in deploy/kubernetes
// offline: each document is decoded strictly (unknown or misspelled fields
// fail) into the typed objects of k8s.io/api at a pinned version, and the
// hardening docs/deploy.md promises is asserted (non-root, read-only root
// filesystem, no capabilities, seccomp RuntimeDefault, /healthz probes,
// the token from a Secret generated from the operator's file, never a
// committed placeholder; egress denied by default).
//
// It is its own module so that the server's go.mod does not carry the
// Kubernetes API types. Not covered: admission-time checks a cluster adds
// (Pod Security admission, quotas), and whether the image exists.
package validate
