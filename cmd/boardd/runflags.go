package main

import (
	"flag"
	"fmt"

	"boardd/app/board"
	"boardd/app/catalog"
	"boardd/configs"
)

// runOverrides are boardd run's flags for the settings changed most
// often; each overrides its config key.
type runOverrides struct {
	board, web, mqtt, state, variant, hub *string
	hubCA, hubCert, hubKey                *string
}

func runFlags(fs *flag.FlagSet) runOverrides {
	return runOverrides{
		board:   fs.String("board", "", "the board's name: its MQTT topics, its name on a club hub, its games' Board tag (config board)"),
		web:     fs.String("web", "", "the web display's address, host:port (config web.listen; off: none)"),
		mqtt:    fs.String("mqtt", "", "the embedded MQTT broker's address, host:port (config mqtt.embedded.listen; off: no MQTT)"),
		state:   fs.String("state", "", "the state directory: the game in progress, finished games, passwords (config state_dir)"),
		variant: fs.String("variant", "", "the variant of a new game (config game.variant), such as ffa, teams, chess4"),
		hub:     fs.String("hub", "", "join a club hub: the URL boardd hub prints, mqtt://board:PASSWORD@host:port; several comma-separated, tried in order (config mqtt.hub)"),
		hubCA:   fs.String("hub-ca", "", "PEM file of the CA that signed an ssl:// or wss:// hub's certificate (config mqtt.hub_tls.ca_file)"),
		hubCert: fs.String("hub-cert", "", "PEM client certificate for the hub, if it wants one (config mqtt.hub_tls.cert_file)"),
		hubKey:  fs.String("hub-key", "", "PEM key of the hub client certificate (config mqtt.hub_tls.key_file)"),
	}
}

// apply writes the flags given into cfg and checks it again.
func (o runOverrides) apply(cfg *configs.Daemon) error {
	changed := false
	if *o.board != "" {
		cfg.Board, changed = *o.board, true
	}
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
		cfg.SetStateDir(*o.state, "--state")
		changed = true
	}
	if *o.hub != "" {
		cfg.MQTT.Hub, changed = *o.hub, true
	}
	for _, f := range []struct{ flag, key *string }{{o.hubCA, &cfg.MQTT.HubTLS.CAFile}, {o.hubCert, &cfg.MQTT.HubTLS.CertFile}, {o.hubKey, &cfg.MQTT.HubTLS.KeyFile}} {
		if *f.flag != "" {
			*f.key, changed = *f.flag, true
		}
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
	if err := board.CheckConfig(cfg, "the command line"); err != nil {
		return fmt.Errorf("%w (from --board, --web, --mqtt, --state, --variant, --hub or --hub-ca/--hub-cert/--hub-key)", err)
	}
	return nil
}
