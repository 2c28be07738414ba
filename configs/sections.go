package configs

import (
	"fmt"
	"reflect"
	"sync"

	"go.yaml.in/yaml/v3"
)

// sections are the driver sections of sensors (sensors.hc165, …): each
// switch driver registers its own type and defaults (RegisterSensorsSection),
// so configs knows their keys without naming a driver.
var sections struct {
	mu       sync.Mutex
	defaults map[string]reflect.Value // name → pointer to the defaults
}

// RegisterSensorsSection adds the section sensors.<name> to the config:
// defaults is a pointer to a struct with yaml tags holding the section's
// default values. Its keys are checked like every other key, and
// SensorsSection answers a config's values. A second section of one name
// is a programming error: RegisterSensorsSection panics.
func RegisterSensorsSection(name string, defaults any) {
	v := reflect.ValueOf(defaults)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("configs: section sensors.%s: defaults must be a pointer to a struct, not %T", name, defaults))
	}
	sections.mu.Lock()
	defer sections.mu.Unlock()
	if _, dup := sections.defaults[name]; dup {
		panic(fmt.Sprintf("configs: section sensors.%s registered twice", name))
	}
	if sections.defaults == nil {
		sections.defaults = map[string]reflect.Value{}
	}
	sections.defaults[name] = v
}

// sectionTypes are the registered sections' struct types by name.
func sectionTypes() map[string]reflect.Type {
	sections.mu.Lock()
	defer sections.mu.Unlock()
	out := map[string]reflect.Type{}
	for n, v := range sections.defaults {
		out[n] = v.Elem().Type()
	}
	return out
}

// newSections copies every registered section's defaults.
func newSections() map[string]any {
	sections.mu.Lock()
	defer sections.mu.Unlock()
	out := map[string]any{}
	for n, v := range sections.defaults {
		c := reflect.New(v.Elem().Type())
		c.Elem().Set(v.Elem())
		out[n] = c.Interface()
	}
	return out
}

// SensorsSection returns the values of the section sensors.<name> that
// the driver registered with type T (RegisterSensorsSection); writing
// through the pointer changes the config (flags do). A name registered
// with another type, or not at all, is a programming error: it panics.
func SensorsSection[T any](s *Sensors, name string) *T {
	if s.sections == nil {
		s.sections = newSections()
	}
	if _, ok := s.sections[name]; !ok {
		for n, v := range newSections() { // registered after this config was made
			if _, have := s.sections[n]; !have {
				s.sections[n] = v
			}
		}
	}
	p, ok := s.sections[name].(*T)
	if !ok {
		panic(fmt.Sprintf("configs: sensors.%s is %T, not registered as %T", name, s.sections[name], p))
	}
	return p
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
	if s.sections == nil {
		s.sections = newSections()
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		sec, ok := s.sections[n.Content[i].Value]
		if !ok || n.Content[i+1].Tag == "!!null" {
			continue
		}
		if err := n.Content[i+1].Decode(sec); err != nil {
			return err
		}
	}
	return nil
}
