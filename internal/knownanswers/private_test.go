package knownanswers_test

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// TestAlreadyCanonical is the differential of the private-state reader against decoding and
// encoding it (encoding/json): random private states, written as encoding/json writes them
// and then often altered (spaces, keys out of order or repeated, other escapes, values that
// are not base64, not JSON or empty). Where the reader takes one, its keys must be those
// decoding finds, and the bytes as they are must be decoding's encoding of them.
func TestAlreadyCanonical(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed)) //nolint:gosec // test data
	pick := func(options ...string) string { return options[rng.Intn(len(options))] }
	taken := 0
	for i := 0; i < 20000; i++ {
		keys := map[string][]byte{}
		for range rng.Intn(4) {
			key := pick("answer", "answer_bytes", "kubeconfig_server", ".import_before_read", "", "a<b", "é", "k\"q", "z")
			keys[key] = []byte(pick(`"aLrnXQ5fCvyx3pmOK65BiQ"`, `{"kept":true}`, `true`, `1`, `"é"`, `"<&>"`, `[1, 2]`))
		}
		private, err := json.Marshal(keys)
		if err != nil {
			t.Fatal(err)
		}
		switch rng.Intn(8) {
		case 0:
			private = bytes.Replace(private, []byte(":"), []byte(": "), 1)
		case 1:
			private = bytes.Replace(private, []byte(`{"`), []byte(`{"z":"dHJ1ZQ==","`), 1)
		case 2:
			private = bytes.Replace(private, []byte(`==`), []byte(``), 1)
		case 3:
			private = bytes.Replace(private, []byte(`":"`), []byte(`":""`), 1)
		case 4:
			private = append([]byte(` `), private...)
		case 5:
			at := rng.Intn(len(private))
			private[at] = "\"\\,:{}aA=+/ \x00"[rng.Intn(13)]
		}
		fast, ok := knownanswers.AlreadyCanonical(private)
		if !ok {
			continue
		}
		taken++
		encoded, decoded, valid := knownanswers.DecodedPrivate(private)
		if !valid || !reflect.DeepEqual(fast, decoded) || !bytes.Equal(encoded, private) {
			t.Fatalf("%q: read as %q, decoding answers %q %q (valid %v)", private, fast, decoded, encoded, valid)
		}
	}
	if taken < 1000 {
		t.Errorf("only %d private states taken: the canonical ones are refused", taken)
	}
	written, _ := json.Marshal(map[string][]byte{"answer": []byte(`"aLrnXQ5fCvyx3pmOK65BiQ"`), "answer_bytes": []byte(`"G2g/MJAeDp/WrbHuPvxG6w"`),
		"kubeconfig_server": []byte(`"593649f4"`)})
	if _, ok := knownanswers.AlreadyCanonical(written); !ok {
		t.Errorf("%q, as the layer writes it, not taken", written)
	}
	t.Logf("%d of 20000 taken", taken)
}
