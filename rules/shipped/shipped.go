// Package shipped is the set of variant packages boardd ships: importing
// it (for its effect) links each one in, and each registers its hook with
// package rules in its init, as internal/drivers does for the switch and
// LED drivers. The variant loader (rules/variants) imports it, so every
// program that loads a variant file gets the shipped set; a variant file
// whose package is not listed here fails to load, naming its first key
// that no linked-in hook reads.
//
// To add a variant: a package under rules/ that calls rules.RegisterHook
// (and rules.RegisterOptions for its own keys) in init, its YAML in
// configs/variants, and one line here.
package shipped

import (
	_ "boardd/rules/blocking"  // blocking-double.yaml
	_ "boardd/rules/chess4"    // chess4.yaml, chess4-m2.yaml
	_ "boardd/rules/essay"     // essay-*.yaml (and the mode of russian-fortress.yaml)
	_ "boardd/rules/fortress"  // russian-fortress.yaml
	_ "boardd/rules/stevenson" // stevenson.yaml
	_ "boardd/rules/verney"    // verney.yaml
)
