package speech

import (
	"bytes"
	"encoding/binary"
	"math"

	"boardd/referee"
)

// Cues are the short sounds the board plays for what happens, the same
// five the web page plays: each a list of tones (frequency in Hz, 0 for
// a pause; length in seconds).
var Cues = map[string][]Tone{
	"move":    {{660, 0.07}},
	"check":   {{880, 0.09}, {1175, 0.12}},
	"illegal": {{196, 0.28}},
	"flag":    {{1320, 0.06}, {0, 0.05}, {1320, 0.06}, {0, 0.05}, {1320, 0.06}},
	"over":    {{784, 0.14}, {659, 0.14}, {523, 0.3}},
}

// Tone is one note of a cue.
type Tone struct {
	Hz, Seconds float64
}

// CueFor names the cue of a message: "move", "check" (a move that gives
// check), "illegal", "flag" or "over"; "" for none.
func CueFor(m referee.Message) string {
	switch m.Kind {
	case referee.MsgMove, referee.MsgPromotionChanged:
		if len(m.Checks) > 0 {
			return "check"
		}
		return "move"
	case referee.MsgIllegal, referee.MsgOutOfTurn, referee.MsgAmbiguous:
		return "illegal"
	case referee.MsgTimeout:
		return "flag"
	case referee.MsgGameOver:
		if m.Result != nil && m.Result.Reason == "abandoned" {
			return ""
		}
		return "over"
	}
	return ""
}

// sampleRate of the cues' WAV data.
const sampleRate = 22050

// WAV renders a cue as a WAV file (16-bit mono PCM), for aplay.
func WAV(tones []Tone) []byte {
	var pcm []int16
	for _, t := range tones {
		n := int(t.Seconds * sampleRate)
		for i := 0; i < n; i++ {
			v := 0.0
			if t.Hz > 0 {
				// A short fade in and out keeps the tone from clicking.
				env := math.Min(1, math.Min(float64(i), float64(n-i))/(0.005*sampleRate))
				v = 0.3 * env * math.Sin(2*math.Pi*t.Hz*float64(i)/sampleRate)
			}
			pcm = append(pcm, int16(v*math.MaxInt16))
		}
	}
	var b bytes.Buffer
	data := uint32(len(pcm) * 2)
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, 36+data)
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(sampleRate), uint32(sampleRate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v) // fmt: PCM, mono, 16 bits
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, data)
	binary.Write(&b, binary.LittleEndian, pcm)
	return b.Bytes()
}
