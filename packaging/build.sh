#!/usr/bin/env bash
# Builds boardd's Debian packages into dist/: arm64 (Pi 3, 4, 5, Zero 2 W
# on 64-bit Raspberry Pi OS), armhf built for ARMv6 (Pi 1, Zero, Zero W
# and every 32-bit Raspberry Pi OS) and amd64. Needs only Go: the packager
# is nfpm's Go library (packaging/main.go, its own module so the daemon's
# go.mod stays small).
#   bash packaging/build.sh            # version from git
#   VERSION=1.2.0 bash packaging/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dist=dist
mkdir -p "$dist"
if [ -z "${VERSION:-}" ]; then
	rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	date=$(git log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null || date +%Y%m%d)
	VERSION="0.0.0~git${date}.${rev}"
fi

# The packaged config: configs/boardd.yaml with the web display and the
# embedded MQTT broker on the LAN, so phones on the club's network can
# watch with no edits (viewers are read-only until they log in; MQTT
# needs the generated password).
cfg="$dist/boardd.yaml"
sed -e 's|^  listen: 127.0.0.1:8080$|  listen: 0.0.0.0:8080    # the LAN: every address is printed at start, with a QR code|' \
    -e 's|^    listen: 127.0.0.1:1883 .*$|    listen: 0.0.0.0:1883 # the LAN; clients need a user and password|' \
    configs/boardd.yaml >"$cfg"
grep -q '^  listen: 0.0.0.0:8080' "$cfg" && grep -q '^    listen: 0.0.0.0:1883' "$cfg" || {
	echo "packaging/build.sh: configs/boardd.yaml's web.listen or mqtt.embedded.listen line changed: update the sed lines above" >&2
	exit 1
}

# The packager, built for this machine (paths in nfpm.yaml are relative
# to the repository root, where it runs).
packager="$dist/.packager"
go -C packaging build -o "../$packager" .

for target in amd64:amd64: arm64:arm64: arm6:arm:6; do
	IFS=: read -r pkgarch goarch goarm <<<"$target"
	bin="$dist/boardd-$pkgarch"
	CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm go build -trimpath -o "$bin" ./cmd/boardd
	if [ "$pkgarch" = amd64 ] && [ "$(go env GOHOSTARCH)" = amd64 ]; then
		"$bin" config check "$cfg" >/dev/null
	fi
	"$packager" --spec packaging/nfpm.yaml --arch "$pkgarch" --version "$VERSION" --bin "$bin" --config "$cfg" --out "$dist" >/dev/null
done
ls -1 "$dist"/*.deb
