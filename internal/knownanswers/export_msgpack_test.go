package knownanswers

import (
	"bytes"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	msgpack "github.com/vmihailenco/msgpack/v5"
)

// DecodeValue is the known answers' msgpack decoder, for the differential against the library.
func DecodeValue(dv *tfprotov6.DynamicValue, typ tftypes.Type) (tftypes.Value, error) {
	return decodeValue(dv, typ)
}

// DecodesFast tells whether the fast decoder alone decodes data (without the library), so
// that the differential can show it is not vacuous.
func DecodesFast(data []byte, typ tftypes.Type) bool {
	dec := msgpack.NewDecoder(bytes.NewReader(data))
	_, err := msgpackValue(dec, typ)
	return err == nil
}

// MsgPackStrings is msgpackStrings.
func MsgPackStrings(b []byte, identity tftypes.Type) (map[string]string, bool) {
	return msgpackStrings(b, identity)
}

// CLIMsgPack is cliMsgPack.
func CLIMsgPack(v tftypes.Value) ([]byte, bool) { return cliMsgPack(v) }

// AlreadyCanonical is alreadyCanonical; DecodedPrivate is decodedPrivate.
func AlreadyCanonical(private []byte) (map[string][]byte, bool) { return alreadyCanonical(private) }

func DecodedPrivate(private []byte) ([]byte, map[string][]byte, bool) { return decodedPrivate(private) }

// SentIdentityStrings is sentIdentityStrings.
func SentIdentityStrings(sent *tfprotov6.ResourceIdentityData, identity tftypes.Type) (map[string]string, bool) {
	return sentIdentityStrings(sent, identity)
}
