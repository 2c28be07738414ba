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
// clone), and an anchor (page.md#part, or #part on the same page) must
// name a heading of that page.
func TestRelativeLinksResolve(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root %s has no go.mod: %v", root, err)
	}
	files := 0
	anchors := anchorCache{t: t, pages: map[string]map[string]bool{}}
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
			if strings.HasPrefix(target, "#") {
				if frag := strings.TrimPrefix(target, "#"); frag != "" && !anchors.of(path)[unescape(frag)] {
					t.Errorf("%s: link %q: this page has no heading with that anchor", rel, target)
				}
				continue
			}
			if !relative(target) {
				continue
			}
			p, frag := target, ""
			if i := strings.Index(p, "#"); i >= 0 {
				p, frag = p[:i], p[i+1:]
			}
			if i := strings.Index(p, "?"); i >= 0 {
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
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") && !anchors.of(dest)[unescape(frag)] {
				t.Errorf("%s: link %q: %s has no heading with that anchor", rel, target, filepath.Base(dest))
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

// anchorCache reads each linked page's anchors once.
type anchorCache struct {
	t     *testing.T
	pages map[string]map[string]bool
}

func (c anchorCache) of(path string) map[string]bool {
	if a, ok := c.pages[path]; ok {
		return a
	}
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Errorf("reading %s for its anchors: %v", path, err)
	}
	c.pages[path] = Anchors(string(data))
	return c.pages[path]
}

// unescape turns an anchor written with %-escapes back into its text.
func unescape(frag string) string {
	if u, err := url.PathUnescape(frag); err == nil {
		return u
	}
	return frag
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The bot":                                   "the-bot",
		"Install on a Raspberry Pi":                 "install-on-a-raspberry-pi",
		"A club night, start to finish":             "a-club-night-start-to-finish",
		"The 16×16 board (`board_shape: square16`)": "the-1616-board-board_shape-square16",
		"1. 74HC165 chain over SPI1 (recommended)":  "1-74hc165-chain-over-spi1-recommended",
		"rules/: the engine":                        "rules-the-engine",
		"See [the rules](rules.md) — **now**":       "see-the-rules--now",
		"Row × column GPIO matrix":                  "row--column-gpio-matrix",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func TestAnchors(t *testing.T) {
	text := "# Top\n\n## Part\ntext\n```\n# not a heading\n```\n## Part\n### Part\n<a id=\"here\"></a>\n#nospace\n"
	got := Anchors(text)
	for _, want := range []string{"top", "part", "part-1", "part-2", "here"} {
		if !got[want] {
			t.Errorf("Anchors lacks %q: %v", want, got)
		}
	}
	for _, not := range []string{"not-a-heading", "nospace"} {
		if got[not] {
			t.Errorf("Anchors has %q, which is no heading: %v", not, got)
		}
	}
}

// TestReadmeLinksEveryDocsPage keeps the README's "Read further" table
// whole: every page in docs/ is linked from the README, so a newcomer
// finds it.
func TestReadmeLinksEveryDocsPage(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, target := range links(string(readme)) {
		if i := strings.Index(target, "#"); i >= 0 {
			target = target[:i]
		}
		linked[filepath.Clean(filepath.FromSlash(target))] = true
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no pages in docs/")
	}
	for _, page := range pages {
		rel, _ := filepath.Rel(root, page)
		if !linked[rel] {
			t.Errorf("README.md does not link %s: add it to the table under \"Read further\"", filepath.ToSlash(rel))
		}
	}
}
