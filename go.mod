module boardd

go 1.26.8

require go.yaml.in/yaml/v3 v3.0.6

require (
	github.com/jonboulle/clockwork v0.5.0 // indirect
	periph.io/x/conn/v3 v3.7.3 // indirect
	periph.io/x/host/v3 v3.8.5 // indirect
)
