//go:build !linux

package botseat

// lowerPriority does nothing where threads cannot be reniced one by one.
func lowerPriority(int) {}
