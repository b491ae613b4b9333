package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// safeTensors is a parsed .safetensors file: named tensors converted to float32.
type safeTensors map[string]safeTensor

type safeTensor struct {
	shape []int
	data  []float32
}

// maxSafetensorsHeader bounds the JSON header so a corrupt file cannot make
// us allocate gigabytes.
const maxSafetensorsHeader = 100 << 20

// readSafetensors loads every F32, F16 or BF16 tensor of a .safetensors file.
func readSafetensors(path string) (safeTensors, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(buf) < 8 {
		return nil, fmt.Errorf("%s: too short for safetensors", path)
	}
	hlen := binary.LittleEndian.Uint64(buf)
	if hlen > maxSafetensorsHeader || 8+hlen > uint64(len(buf)) {
		return nil, fmt.Errorf("%s: bad safetensors header length %d", path, hlen)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(buf[8:8+hlen], &header); err != nil {
		return nil, fmt.Errorf("%s: safetensors header: %w", path, err)
	}
	body := buf[8+hlen:]
	out := safeTensors{}
	for name, raw := range header {
		if name == "__metadata__" {
			continue
		}
		var info struct {
			Dtype   string   `json:"dtype"`
			Shape   []int    `json:"shape"`
			Offsets [2]int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(raw, &info); err != nil {
			return nil, fmt.Errorf("%s: tensor %s: %w", path, name, err)
		}
		n := 1
		for _, d := range info.Shape {
			if d < 0 {
				return nil, fmt.Errorf("%s: tensor %s: negative dimension", path, name)
			}
			n *= d
		}
		lo, hi := info.Offsets[0], info.Offsets[1]
		if lo < 0 || hi < lo || hi > int64(len(body)) {
			return nil, fmt.Errorf("%s: tensor %s: offsets %v out of range", path, name, info.Offsets)
		}
		b := body[lo:hi]
		data := make([]float32, n)
		switch info.Dtype {
		case "F32":
			if len(b) != 4*n {
				return nil, fmt.Errorf("%s: tensor %s: %d bytes for %d floats", path, name, len(b), n)
			}
			for i := range data {
				data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
		case "F16", "BF16":
			if len(b) != 2*n {
				return nil, fmt.Errorf("%s: tensor %s: %d bytes for %d halves", path, name, len(b), n)
			}
			for i := range data {
				u := binary.LittleEndian.Uint16(b[2*i:])
				if info.Dtype == "BF16" {
					data[i] = math.Float32frombits(uint32(u) << 16)
				} else {
					data[i] = halfToFloat(u)
				}
			}
		default:
			continue // integer buffers such as position_ids are not weights we need
		}
		out[name] = safeTensor{info.Shape, data}
	}
	return out, nil
}

func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal
		f := float32(frac) / 1024 * float32(math.Pow(2, -14))
		if sign != 0 {
			f = -f
		}
		return f
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
