package configs

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// sections are the drivers' own sections (sensors.hc165, leds.apa102, …):
// each switch or LED driver registers its own type and defaults
// (RegisterSensorsSection, RegisterLEDsSection), so configs knows their
// keys without naming a driver.
var sections struct {
	mu       sync.Mutex
	defaults map[string]map[string]reflect.Value // group (sensors, leds) → name → pointer to the defaults
}

func registerSection(group, name string, defaults any) {
	v := reflect.ValueOf(defaults)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("configs: section %s.%s: defaults must be a pointer to a struct, not %T", group, name, defaults))
	}
	sections.mu.Lock()
	defer sections.mu.Unlock()
	if _, dup := sections.defaults[group][name]; dup {
		panic(fmt.Sprintf("configs: section %s.%s registered twice", group, name))
	}
	if sections.defaults == nil {
		sections.defaults = map[string]map[string]reflect.Value{}
	}
	if sections.defaults[group] == nil {
		sections.defaults[group] = map[string]reflect.Value{}
	}
	sections.defaults[group][name] = v
}

// RegisterSensorsSection adds the section sensors.<name> to the config:
// defaults is a pointer to a struct with yaml tags holding the section's
// default values. Its keys are checked like every other key, and
// SensorsSection answers a config's values. A second section of one name
// is a programming error: RegisterSensorsSection panics.
func RegisterSensorsSection(name string, defaults any) { registerSection("sensors", name, defaults) }

// RegisterLEDsSection adds the section leds.<name> to the config, as
// RegisterSensorsSection does for sensors; LEDsSection answers a
// config's values.
func RegisterLEDsSection(name string, defaults any) { registerSection("leds", name, defaults) }

// sectionTypes are the registered sections' struct types of a group by
// name.
func sectionTypes(group string) map[string]reflect.Type {
	sections.mu.Lock()
	defer sections.mu.Unlock()
	out := map[string]reflect.Type{}
	for n, v := range sections.defaults[group] {
		out[n] = v.Elem().Type()
	}
	return out
}

// newSections copies every registered section's defaults of a group.
func newSections(group string) map[string]any {
	sections.mu.Lock()
	defer sections.mu.Unlock()
	out := map[string]any{}
	for n, v := range sections.defaults[group] {
		c := reflect.New(v.Elem().Type())
		c.Elem().Set(v.Elem())
		out[n] = c.Interface()
	}
	return out
}

// section is the values of group.name in secs, registered as type T.
func section[T any](secs *map[string]any, group, name string) *T {
	if *secs == nil {
		*secs = newSections(group)
	}
	if _, ok := (*secs)[name]; !ok {
		for n, v := range newSections(group) { // registered after this config was made
			if _, have := (*secs)[n]; !have {
				(*secs)[n] = v
			}
		}
	}
	p, ok := (*secs)[name].(*T)
	if !ok {
		panic(fmt.Sprintf("configs: %s.%s is %T, not registered as %T", group, name, (*secs)[name], p))
	}
	return p
}

// SensorsSection returns the values of the section sensors.<name> that
// the driver registered with type T (RegisterSensorsSection); writing
// through the pointer changes the config (flags do). A name registered
// with another type, or not at all, is a programming error: it panics.
func SensorsSection[T any](s *Sensors, name string) *T {
	return section[T](&s.sections, "sensors", name)
}

// LEDsSection returns the values of the section leds.<name> that the LED
// driver registered with type T (RegisterLEDsSection), as SensorsSection.
func LEDsSection[T any](l *LEDs, name string) *T { return section[T](&l.sections, "leds", name) }

// decodeSections reads each registered section of the mapping n into
// secs (over its defaults).
func decodeSections(n *yaml.Node, group string, secs *map[string]any) error {
	if *secs == nil {
		*secs = newSections(group)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		sec, ok := (*secs)[n.Content[i].Value]
		if !ok || n.Content[i+1].Tag == "!!null" {
			continue
		}
		if err := n.Content[i+1].Decode(sec); err != nil {
			return err
		}
	}
	return nil
}

// UnmarshalYAML reads the sensors section: its own keys, then each
// registered driver section over its defaults.
func (s *Sensors) UnmarshalYAML(n *yaml.Node) error {
	type plain Sensors // without this method
	p := plain(*s)
	if err := n.Decode(&p); err != nil {
		return err
	}
	*s = Sensors(p)
	return decodeSections(n, "sensors", &s.sections)
}

// LegacyLEDKeys are the keys of leds that every SPI LED driver once
// shared; they now belong to each driver's section (leds.apa102.spi).
// An old config's values still count: each is read into every driver
// section with a key of that name that the config does not set itself,
// and LEDs.Deprecated says where to move it.
var LegacyLEDKeys = []string{"spi", "speed_hz"}

// UnmarshalYAML reads the leds section: its own keys, each registered
// driver section over its defaults, then the deprecated shared keys
// (LegacyLEDKeys) into the driver sections that have them.
func (l *LEDs) UnmarshalYAML(n *yaml.Node) error {
	type plain LEDs // without this method
	p := plain(*l)
	if err := n.Decode(&p); err != nil {
		return err
	}
	*l = LEDs(p)
	if err := decodeSections(n, "leds", &l.sections); err != nil {
		return err
	}
	types := sectionTypes("leds")
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if !slices.Contains(LegacyLEDKeys, key.Value) || val.Tag == "!!null" {
			continue
		}
		var moved []string
		for _, name := range slices.Sorted(maps.Keys(types)) {
			if !hasYAMLKey(types[name], key.Value) {
				continue
			}
			moved = append(moved, "leds."+name+"."+key.Value)
			if written(sectionNode(n, name), key.Value) {
				continue // the driver's own key wins
			}
			one := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{key, val}}
			if err := one.Decode(l.sections[name]); err != nil {
				return err
			}
		}
		msg := fmt.Sprintf("line %d: leds.%s is deprecated: each LED driver has its own section now", key.Line, key.Value)
		if len(moved) > 0 {
			msg += "; move it to " + strings.Join(moved, " or ") + " (read there for now)"
		} else {
			msg += "; no LED driver reads it any more: delete it"
		}
		l.deprecated = append(l.deprecated, msg)
	}
	return nil
}

// Deprecated lists the config's deprecated leds keys, each with its line
// and where it belongs now (empty for a config without them).
func (l *LEDs) Deprecated() []string { return slices.Clone(l.deprecated) }

// sectionNode is the mapping n's value under key, or nil.
func sectionNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// hasYAMLKey reports whether struct type t has a field with yaml key k.
func hasYAMLKey(t reflect.Type, k string) bool {
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name == k {
			return true
		}
	}
	return false
}
