package lifetime

import (
	"os"
	"runtime"
	"testing"
)

// TestMain lets the test binary serve as the watchdog, as the server
// binary does. The main goroutine stays on the main thread, so no test
// goroutine that locks a thread and exits lands on it (the runtime cannot
// end the main thread; it would park it instead, and the thread-exit tests
// would see nothing).
func TestMain(m *testing.M) {
	runtime.LockOSThread()
	if len(os.Args) > 1 && os.Args[1] == WatchdogArg {
		os.Exit(RunWatchdog(os.Args[2:]))
	}
	os.Exit(m.Run())
}
