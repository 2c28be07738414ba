// Command packaging builds boardd's Debian packages with nfpm (the Go
// library, so the build needs nothing but Go and the module proxy).
//
//	go -C packaging build -o ../dist/.packager .
//	dist/.packager --arch arm64 --version 0.1.0 --bin dist/boardd-arm64 --config dist/boardd.yaml --out dist
//
// packaging/build.sh runs it from the repository root for arm64, armhf
// (GOARM=6) and amd64. What goes into the package is nfpm.yaml beside this
// file; paths in it are relative to the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
)

func main() {
	spec := flag.String("spec", "packaging/nfpm.yaml", "nfpm spec")
	arch := flag.String("arch", "", "GOARCH of the binary: amd64, arm64, or arm6 (armhf, ARMv6)")
	version := flag.String("version", "", "package version, e.g. 0.1.0~git20261123.9d6e076")
	bin := flag.String("bin", "", "the boardd binary for arch")
	config := flag.String("config", "", "the packaged /etc/boardd/boardd.yaml")
	out := flag.String("out", "dist", "directory for the .deb")
	flag.Parse()
	if *arch == "" || *version == "" || *bin == "" || *config == "" {
		fmt.Fprintln(os.Stderr, "packaging: --arch, --version, --bin and --config are required (packaging/build.sh passes them)")
		os.Exit(2)
	}
	target, err := build(*spec, map[string]string{"ARCH": *arch, "VERSION": *version, "BIN": *bin, "CONFIG": *config}, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "packaging:", err)
		os.Exit(1)
	}
	fmt.Println(target)
}

// build writes the .deb for vars (ARCH, VERSION, BIN, CONFIG, as
// ${NAME} in the spec) into out and returns its path.
func build(spec string, vars map[string]string, out string) (string, error) {
	cfg, err := nfpm.ParseFileWithEnvMapping(spec, func(k string) string { return vars[k] })
	if err != nil {
		return "", fmt.Errorf("%s: %w", spec, err)
	}
	info, err := cfg.Get("deb")
	if err != nil {
		return "", err
	}
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", err
	}
	pkg, err := nfpm.Get("deb")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	target := filepath.Join(out, pkg.ConventionalFileName(info))
	f, err := os.Create(target)
	if err != nil {
		return "", err
	}
	info.Target = target
	if err := pkg.Package(info, f); err != nil {
		f.Close()
		os.Remove(target)
		return "", err
	}
	return target, f.Close()
}
