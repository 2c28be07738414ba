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

# Not a Raspberry Pi (this machine, a club's server): nothing is enabled,
# and the install says how to enable the hub or a board.
out=$(BOARDD_MODEL_FILE=/nonexistent dpkg -i "$deb")
grep -q 'sudo systemctl enable --now boardd-hub' <<<"$out" || fail "a non-Pi install does not say how to start the hub: $out"
[ ! -e /etc/systemd/system/multi-user.target.wants/boardd.service ] || fail "the board's unit was enabled on a machine that is not a Pi"
[ ! -e /etc/systemd/system/multi-user.target.wants/boardd-hub.service ] || fail "the hub's unit was enabled by the install"
systemd-analyze verify /lib/systemd/system/boardd-hub.service
[ -f /usr/share/doc/boardd/hub.md ] || fail "no /usr/share/doc/boardd/hub.md (the hub unit's Documentation=)"
dpkg --purge boardd >/dev/null

# A Raspberry Pi (its device tree's model stood in for): the board's unit
# is enabled on the first install.
printf 'Raspberry Pi 4 Model B Rev 1.4\0' >/tmp/boardd-test-model
BOARDD_MODEL_FILE=/tmp/boardd-test-model dpkg -i "$deb" >/dev/null
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
systemctl enable boardd-hub.service >/dev/null 2>&1 # the owner's choice, kept by an upgrade
sed -i 's/^board: "1"$/board: club-7/' /etc/boardd/boardd.yaml
BOARDD_MODEL_FILE=/tmp/boardd-test-model dpkg -i --force-confold "$deb" >/dev/null
[ -f /var/lib/boardd/marker ] || fail "an upgrade lost /var/lib/boardd"
grep -q '^board: club-7' /etc/boardd/boardd.yaml || fail "an upgrade replaced the edited config"
[ -L /etc/systemd/system/multi-user.target.wants/boardd.service ] || fail "an upgrade disabled the board's unit"
[ -L /etc/systemd/system/multi-user.target.wants/boardd-hub.service ] || fail "an upgrade disabled the hub's unit"

# Remove keeps the games; purge removes them and the config.
dpkg -r boardd >/dev/null
[ -f /var/lib/boardd/marker ] || fail "dpkg -r removed /var/lib/boardd"
[ ! -e /usr/bin/boardd ] || fail "dpkg -r left /usr/bin/boardd"
[ ! -e /etc/systemd/system/multi-user.target.wants/boardd.service ] || fail "dpkg -r left the unit enabled"
[ ! -e /etc/systemd/system/multi-user.target.wants/boardd-hub.service ] || fail "dpkg -r left the hub's unit enabled"
dpkg --purge boardd >/dev/null
[ ! -e /var/lib/boardd ] || fail "dpkg --purge left /var/lib/boardd"
[ ! -e /var/lib/boardd-hub ] || fail "dpkg --purge left /var/lib/boardd-hub"
[ ! -e /etc/boardd/boardd.yaml ] || fail "dpkg --purge left /etc/boardd/boardd.yaml"
rm -f /tmp/boardd-test-model
echo "the amd64 package installs (on a Pi and elsewhere), upgrades, removes and purges cleanly"
