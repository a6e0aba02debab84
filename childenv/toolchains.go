package childenv

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Toolchain is one toolchain installed outside the FHS program
// directories, whose programs a developer runs by name.
type Toolchain struct {
	// Name says which toolchain ("go", "cargo", "nvm node").
	Name string
	// Bin is the directory holding its programs, for the child PATH.
	Bin string
	// Reads are the trees its programs read and execute beneath (their
	// libraries, rustup's toolchains): the sandbox's read directories
	// need them.
	Reads []string
}

// Toolchains returns the toolchains installed where their installers put
// them, for a HOME of home ("" for none), in this order: the Go tarball's
// /usr/local/go/bin (go.dev/doc/install), GOPATH's default bin ~/go/bin
// (go help gopath: where go install puts programs), rustup's ~/.cargo/bin
// with ~/.rustup (rustup book, Installation), and nvm's current node,
// ~/.nvm/versions/node/VERSION/bin (nvm README; the newest installed).
// Only existing directories count.
func Toolchains(home string) []Toolchain {
	var out []Toolchain
	add := func(name, bin string, reads ...string) {
		if fi, err := os.Stat(bin); err == nil && fi.IsDir() {
			out = append(out, Toolchain{Name: name, Bin: bin, Reads: existing(append([]string{bin}, reads...))})
		}
	}
	add("go", "/usr/local/go/bin", "/usr/local/go")
	if !filepath.IsAbs(home) {
		return out
	}
	add("go install", filepath.Join(home, "go", "bin"))
	add("cargo", filepath.Join(home, ".cargo", "bin"), filepath.Join(home, ".rustup"))
	if v := nvmVersion(filepath.Join(home, ".nvm", "versions", "node")); v != "" {
		add("nvm node", filepath.Join(v, "bin"), v)
	}
	return out
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// nvmVersion is the newest nvm node version directory beneath dir (by
// version number).
func nvmVersion(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var versions []string
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), "v") {
			versions = append(versions, filepath.Join(dir, e.Name()))
		}
	}
	slices.SortFunc(versions, func(a, b string) int { return compareVersions(filepath.Base(b), filepath.Base(a)) })
	if len(versions) == 0 {
		return ""
	}
	return versions[0]
}

// compareVersions orders "v22.1.0"-style names numerically.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(strings.TrimPrefix(a, "v"), "."), strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}
