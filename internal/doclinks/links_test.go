package doclinks

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	htmlLink   = regexp.MustCompile(`(?i)<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"`)
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
)

// links lists the link targets of a Markdown text, outside code blocks
// and code spans.
func links(text string) []string {
	var out []string
	fenced := false
	var prose strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			prose.WriteString(codeSpan.ReplaceAllString(line, "") + "\n")
		}
	}
	body := prose.String()
	for _, re := range []*regexp.Regexp{inlineLink, refLink, htmlLink} {
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// relative tells whether a link target is a path in the repository (not
// a web address, a mail address or an anchor on the same page).
func relative(target string) bool {
	if strings.HasPrefix(target, "#") {
		return false
	}
	u, err := url.Parse(target)
	return err != nil || u.Scheme == "" && u.Host == ""
}

func TestLinksParse(t *testing.T) {
	text := "See [a](docs/a.md#part), ![pic](img/x.png \"title\") and <https://x.org>.\n" +
		"`[not](a-link.md)` and [web](https://example.com/a) and [top](#top)\n" +
		"```\n[in code](nope.md)\n```\n[ref]: ../outside.txt\n<a href=\"b.html\">b</a>\n"
	got := links(text)
	want := []string{"docs/a.md#part", "img/x.png", "https://example.com/a", "#top", "../outside.txt", "b.html"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links = %q, want %q", got, want)
	}
	for target, rel := range map[string]bool{"docs/a.md": true, "#top": false, "https://x.org/": false, "mailto:a@b.c": false, "../x": true} {
		if relative(target) != rel {
			t.Errorf("relative(%q) = %v", target, !rel)
		}
	}
}

// TestRelativeLinksResolve checks every Markdown file of the repository:
// each relative link must name a file or directory that exists inside
// the repository (a link out of it, as to ../shared, breaks in a fresh
// clone).
func TestRelativeLinksResolve(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root %s has no go.mod: %v", root, err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "boardd-state") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, target := range links(string(data)) {
			if !relative(target) {
				continue
			}
			p := target
			if i := strings.IndexAny(p, "#?"); i >= 0 {
				p = p[:i]
			}
			if p == "" {
				continue
			}
			if unescaped, err := url.PathUnescape(p); err == nil {
				p = unescaped
			}
			dest := filepath.Clean(filepath.Join(filepath.Dir(path), filepath.FromSlash(p)))
			if strings.HasPrefix(p, "/") {
				dest = filepath.Join(root, filepath.FromSlash(p))
			}
			if inside, _ := filepath.Rel(root, dest); inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
				t.Errorf("%s: link %q points outside the repository: name the source by title and public address instead", rel, target)
				continue
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s: link %q: no such file or directory in the repository", rel, target)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Errorf("only %d Markdown files found under %s", files, root)
	}
}
