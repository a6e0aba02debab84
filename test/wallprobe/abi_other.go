//go:build linux && !amd64

package main

// Without a compat ABI to reach from here, the classes below report
// themselves blocked with the reason.
func i386Call(targets) (bool, string) { return false, "no i386 ABI on this architecture" }

const x32Nr = 0
