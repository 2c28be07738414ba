module boardd

go 1.26.8

require (
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	periph.io/x/conn/v3 v3.7.3 // indirect
	periph.io/x/devices/v3 v3.7.4 // indirect
	periph.io/x/host/v3 v3.8.5 // indirect
)
