// Package doclinks holds the test that every relative link in the
// repository's Markdown files (README.md, docs/, testdata notes, …)
// resolves to a file or directory inside the repository. It has no code
// of its own.
package doclinks
