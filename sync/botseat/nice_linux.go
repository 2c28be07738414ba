package botseat

import (
	"runtime"
	"syscall"
)

// lowerPriority moves the calling goroutine onto its own OS thread and
// lowers that thread's priority (Linux schedules threads, and nice applies
// to one thread). The goroutine never unlocks the thread, so the thread
// ends with it and no other goroutine inherits the lower priority.
func lowerPriority(nice int) {
	if nice <= 0 {
		return
	}
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
}
