package pi

import (
	"os"
	"path/filepath"
	"testing"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		model string
		want  Kind
	}{
		{"Raspberry Pi 3 Model B Plus Rev 1.3", Pi3},
		{"Raspberry Pi 3 Model B Rev 1.2", Pi3},
		{"Raspberry Pi Zero 2 W Rev 1.0", Pi3},
		{"Raspberry Pi 4 Model B Rev 1.4", Pi4},
		{"Raspberry Pi 400 Rev 1.0", Pi4},
		{"Raspberry Pi Compute Module 4 Rev 1.0", Pi4},
		{"Raspberry Pi 5 Model B Rev 1.0", Pi5},
		{"Raspberry Pi 500 Rev 1.0", Pi5},
		{"Raspberry Pi Zero W Rev 1.1", Pi1},
		{"Raspberry Pi Model B Plus Rev 1.2", Pi1},
		{"Raspberry Pi 2 Model B Rev 1.1", Pi2},
		{"", NotPi},
		{"QEMU Virtual Machine", NotPi},
	}
	for _, tc := range tests {
		if got := KindOf(tc.model); got != tc.want {
			t.Errorf("KindOf(%q) = %v, want %v", tc.model, got, tc.want)
		}
	}
}

func TestModelReadsTheDeviceTree(t *testing.T) {
	root := t.TempDir()
	if got := Model(root); got != "" {
		t.Errorf("no device tree: %q", got)
	}
	dir := filepath.Join(root, "sys/firmware/devicetree/base")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "model"), []byte("Raspberry Pi 5 Model B Rev 1.0\x00"), 0o644)
	if got := Model(root); got != "Raspberry Pi 5 Model B Rev 1.0" {
		t.Errorf("Model = %q", got)
	}
}
