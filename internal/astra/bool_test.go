package astra

import (
	"encoding/json"
	"testing"
)

func TestBoolDecodesEverySpelling(t *testing.T) {
	cases := []struct {
		in      string
		want    bool
		wantErr bool
	}{
		{`"true"`, true, false},
		{`"false"`, false, false},
		{`""`, false, false},
		{`true`, true, false},
		{`false`, false, false},
		{`"True"`, true, false},
		{`"FALSE"`, false, false},
		{`" true "`, true, false},
		{`null`, false, false},
		{`"yes"`, false, true},
		{`1`, false, true},
	}
	for _, c := range cases {
		var b Bool = true
		if c.in == `null` || c.wantErr {
			b = false
		}
		err := json.Unmarshal([]byte(c.in), &b)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err = %v, wantErr %v", c.in, err, c.wantErr)
			continue
		}
		if !c.wantErr && bool(b) != c.want {
			t.Errorf("%s: got %v, want %v", c.in, b, c.want)
		}
	}
}

func TestBoolEncodesStrings(t *testing.T) {
	out, err := json.Marshal(struct {
		A Bool  `json:"a"`
		B Bool  `json:"b"`
		C *Bool `json:"c,omitempty"`
		D *Bool `json:"d,omitempty"`
	}{A: true, B: false, D: BoolPtr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"a":"true","b":"false","d":"true"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestBoolValueOfNil(t *testing.T) {
	var missing *Bool
	if missing.Value() || !BoolPtr(true).Value() || BoolPtr(false).Value() {
		t.Fatal("Value must be false for nil and follow the pointee otherwise")
	}
}

func TestBoolOptionalFieldDecodesNullAsNil(t *testing.T) {
	var c Cluster
	if err := json.Unmarshal([]byte(`{"inUse":null,"accHost":"","isMultizonal":"True"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.InUse != nil {
		t.Errorf("inUse null should leave nil, got %v", *c.InUse)
	}
	if c.AccHost == nil || *c.AccHost {
		t.Errorf(`accHost "" should decode as false, got %v`, c.AccHost)
	}
	if !c.IsMultizonal.Value() {
		t.Error(`isMultizonal "True" should decode as true`)
	}
}
