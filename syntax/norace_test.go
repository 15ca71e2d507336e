//go:build !race

package syntax

// raceEnabled shrinks the largest inputs under the race detector.
const raceEnabled = false
