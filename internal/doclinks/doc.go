// Package doclinks checks the links of the repository's Markdown files
// (README.md, docs/, testdata notes, …): its test requires every
// relative link to name a file or directory inside the repository, every
// anchor (#part) to name a heading of the page it points to, and the
// README to link every page in docs/. Slug and Anchors compute the
// anchors GitHub gives a page's headings.
package doclinks
