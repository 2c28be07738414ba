package doclinks

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$`)
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlAnchor = regexp.MustCompile(`(?i)<a\s[^>]*(?:id|name)="([^"]+)"`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// Slug is the anchor GitHub gives a heading's text: the text as shown
// (links by their text, no code marks, emphasis or tags), lower case,
// with everything but letters, marks, digits, connectors (such as _),
// spaces and hyphens removed and each space made a hyphen.
func Slug(heading string) string {
	text := mdLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors lists the anchors a Markdown text offers a link: one per
// heading outside code blocks, a repeated one numbered as GitHub does
// (part, part-1, part-2), and the ids and names of HTML anchors.
func Anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[2])
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}
