// Package app is the home of the programs boardd runs, each assembled
// from the layers below it: app/board is one board assembled from its
// config and run (boardd run), app/doctor checks a Pi for it, app/termsim
// and app/termview are the terminal front ends, app/catalog the shipped
// variants as the commands look them up, app/drivers the shipped driver
// set (it imports every driver), and app/systest the tests that run the
// whole program. The club hub is to be the second resident.
//
// Nothing below app/ imports it: internal/ holds only leaves that import
// nothing of boardd's outside internal/, and layout_test.go checks every
// direction of the import graph (docs/architecture.md, "The house").
package app
