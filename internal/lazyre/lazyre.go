package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. The zero value is
// not usable; build one with New.
type Regexp struct {
	expr string
	re   func() *regexp.Regexp
}

// New returns expr, to be compiled with regexp.MustCompile on first use.
func New(expr string) *Regexp {
	return &Regexp{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp { return r.re() }

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// Check compiles every expression in rs and returns the first error.
func Check(rs ...*Regexp) error {
	for _, r := range rs {
		if _, err := regexp.Compile(r.expr); err != nil {
			return err
		}
	}
	return nil
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.re().Match(b) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.re().Split(s, n) }
