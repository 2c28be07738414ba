// Package configs holds the files boardd ships: the variant definitions
// (variants/*.yaml), embedded so the binary needs nothing beside it.
package configs

import "embed"

// Variants holds variants/*.yaml, one rule system per file.
//
//go:embed variants/*.yaml
var Variants embed.FS
