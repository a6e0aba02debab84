// Package lazyre holds regular expressions that are compiled on first use
// instead of at package initialization.
//
// Every process of the server runs the whole binary's package
// initialization: the server itself, the lifetime watchdog and the
// sandbox launcher it re-executes, and `--help`. A package-level
// regexp.MustCompile costs each of them the compilation whether the
// expression is ever matched or not. A *Regexp compiles once, when a
// method is first called, from any goroutine; after that a call costs one
// atomic load more than the *regexp.Regexp it wraps.
//
// An expression that does not compile panics on first use, as
// regexp.MustCompile would have at start-up: New is for literals that the
// owning package's tests match at least once (Check compiles a set of them
// in a test).
package lazyre
