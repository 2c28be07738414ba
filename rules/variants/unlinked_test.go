package variants

import (
	"strings"
	"testing"
)

// A key nobody reads is refused naming both likely causes: a misspelling,
// or a variant file whose package is not linked in (rules/shipped), which
// is how a build without one variant's package meets that variant's file.
func TestUnreadKeyNamesTheShippedList(t *testing.T) {
	src := mustRead(t, "stevenson.yaml")
	const edit = "king_moves_as_queen:"
	if !strings.Contains(src, edit) {
		t.Fatalf("stevenson.yaml has no %q", edit)
	}
	_, err := Parse("stevenson.yaml", []byte(strings.Replace(src, edit, "king_moves_as_a_queen:", 1)))
	for _, want := range []string{"stevenson.yaml: line ", "king_moves_as_a_queen: field king_moves_as_a_queen not found", "spelling", "rules/shipped"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to contain %q", err, want)
		}
	}
}
