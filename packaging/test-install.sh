#!/usr/bin/env bash
# Installs the amd64 package built by packaging/build.sh on this machine
# (root, Debian), checks what it installed, upgrades over it, removes it
# and purges it. .ci/test runs it under CI; it changes the machine (a
# boardd user, /etc/boardd, /var/lib/boardd while installed), so run it
# by hand only on a throwaway machine.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -1 dist/boardd_*_amd64.deb | tail -n 1)
fail() { echo "packaging/test-install.sh: $*" >&2; exit 1; }

dpkg -i "$deb" >/dev/null
boardd version
boardd doctor --root testdata/doctor/pi4 >/dev/null || fail "boardd doctor on the pi4 fixture failed"
if boardd doctor --root testdata/doctor/pi3 >/dev/null 2>&1; then fail "boardd doctor passed the broken pi3 fixture"; fi
getent passwd boardd >/dev/null || fail "no boardd user"
[ "$(stat -c %U /var/lib/boardd)" = boardd ] || fail "/var/lib/boardd is not boardd's"
grep -qx /etc/boardd/boardd.yaml /var/lib/dpkg/info/boardd.conffiles || fail "/etc/boardd/boardd.yaml is not a conffile"
grep -q '^  listen: 0.0.0.0:8080' /etc/boardd/boardd.yaml || fail "the packaged config does not put the web display on the LAN"
boardd config check /etc/boardd/boardd.yaml >/dev/null
systemd-analyze verify /lib/systemd/system/boardd.service
[ -L /etc/systemd/system/multi-user.target.wants/boardd.service ] || fail "the unit is not enabled"

# An upgrade (the same package again) keeps the games and a changed config.
echo 'a game' >/var/lib/boardd/marker
sed -i 's/^board: "1"$/board: club-7/' /etc/boardd/boardd.yaml
dpkg -i --force-confold "$deb" >/dev/null
[ -f /var/lib/boardd/marker ] || fail "an upgrade lost /var/lib/boardd"
grep -q '^board: club-7' /etc/boardd/boardd.yaml || fail "an upgrade replaced the edited config"

# Remove keeps the games; purge removes them and the config.
dpkg -r boardd >/dev/null
[ -f /var/lib/boardd/marker ] || fail "dpkg -r removed /var/lib/boardd"
[ ! -e /usr/bin/boardd ] || fail "dpkg -r left /usr/bin/boardd"
[ ! -e /etc/systemd/system/multi-user.target.wants/boardd.service ] || fail "dpkg -r left the unit enabled"
dpkg --purge boardd >/dev/null
[ ! -e /var/lib/boardd ] || fail "dpkg --purge left /var/lib/boardd"
[ ! -e /etc/boardd/boardd.yaml ] || fail "dpkg --purge left /etc/boardd/boardd.yaml"
echo "the amd64 package installs, upgrades, removes and purges cleanly"
