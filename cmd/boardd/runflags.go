package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"strings"
	"syscall"

	"boardd/internal/catalog"

	"boardd/configs"
)

// runOverrides are boardd run's flags for the settings changed most
// often; each overrides its config key.
type runOverrides struct {
	web, mqtt, state, variant *string
}

func runFlags(fs *flag.FlagSet) runOverrides {
	return runOverrides{
		web:     fs.String("web", "", "the web display's address, host:port (config web.listen; off: none)"),
		mqtt:    fs.String("mqtt", "", "the embedded MQTT broker's address, host:port (config mqtt.embedded.listen; off: no MQTT)"),
		state:   fs.String("state", "", "the state directory: the game in progress, finished games, passwords (config state_dir)"),
		variant: fs.String("variant", "", "the variant of a new game (config game.variant), such as ffa, teams, chess4"),
	}
}

// apply writes the flags given into cfg and checks it again.
func (o runOverrides) apply(cfg *configs.Daemon) error {
	changed := false
	if *o.web != "" {
		cfg.Web.Listen, changed = *o.web, true
	}
	if *o.mqtt != "" {
		if *o.mqtt == "off" {
			cfg.MQTT.Disabled = true
		} else {
			cfg.MQTT.Embedded.Listen = *o.mqtt
		}
		changed = true
	}
	if *o.state != "" {
		cfg.StateDir, changed = *o.state, true
	}
	if *o.variant != "" {
		if _, err := catalog.Variant(*o.variant, cfg.Game.Start); err != nil {
			return fmt.Errorf("--variant %s: %w (boardd variants lists them)", *o.variant, err)
		}
		cfg.Game.Variant, changed = *o.variant, true
	}
	if !changed {
		return nil
	}
	if err := cfg.Check("the command line", nil); err != nil {
		return fmt.Errorf("%w (from --web, --mqtt, --state or --variant)", err)
	}
	return nil
}

// checkPorts tries the addresses boardd run will listen on before it
// writes or logs anything, so a busy port is reported first, with the
// flag and the config key that change it.
func checkPorts(cfg configs.Daemon) error {
	type port struct{ addr, flag, key string }
	var ports []port
	if w := cfg.Web.Listen; w != "" && w != "off" {
		ports = append(ports, port{w, "--web", "web.listen"})
	}
	if !cfg.MQTT.Disabled && cfg.MQTT.Broker == "" {
		ports = append(ports, port{cfg.MQTT.Embedded.Listen, "--mqtt", "mqtt.embedded.listen"})
	}
	if l := cfg.Sensors.Listen; l != "" {
		ports = append(ports, port{l, "", "sensors.listen"})
	}
	for _, p := range ports {
		if strings.HasPrefix(p.addr, "/") || strings.HasPrefix(p.addr, "@") {
			continue // a unix socket
		}
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			how := "config key " + p.key
			if p.flag != "" {
				how = p.flag + " ADDR or the config key " + p.key
			}
			why := err.Error()
			if errors.Is(err, syscall.EADDRINUSE) {
				why = "the address is in use (another boardd, or another program, listens there)"
			}
			return fmt.Errorf("%s %s: %s: choose another address with %s (port 0 picks a free one)", p.key, p.addr, why, how)
		}
		ln.Close()
	}
	return nil
}
