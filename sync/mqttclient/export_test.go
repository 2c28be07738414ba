package mqttclient

import "time"

// SetResendAfter makes commands wait d for a reply before they are sent
// again, until the returned func restores it.
func SetResendAfter(d time.Duration) (restore func()) {
	old := resendAfter
	resendAfter = d
	return func() { resendAfter = old }
}
