// Package systest holds boardd's whole-system tests: real and random games
// played through simulated hands and switches into the referee, the
// daemon started as a process and killed, its journal on a full or failing
// disk, MQTT, the web display over TLS, bot seats, speech, the systemd
// unit. They drive the built boardd binary (built once by TestMain) and
// the packages' APIs (board.Start, termsim, handsim), never package
// main's internals, so they run apart from cmd/boardd's own tests.
//
// go test ./app/systest runs them all (-short skips the longest); nothing
// here is part of the daemon.
package systest
