//go:build !linux

// Without splice(2) a drain past the cap always reads, into the pooled
// drain buffer (capture.go).

package runner

import "os"

// splice is never available off Linux: the caller reads the rest.
func (c *capture) splice(*os.File) bool {
	c.noSplice = true
	return false
}
