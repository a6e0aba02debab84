//go:build race

package server

// raceEnabled: the race detector adds shadow memory for every heap page
// the process touches, which the soak's RSS figure then includes.
const raceEnabled = true
