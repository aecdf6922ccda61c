package knownanswers

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// buildKey names the code that converts answers to state: a record written by another
// build may hold a state this one would not write, so only the same build takes its
// shortcut. In order of preference: the Go build ID the linker wrote (it hashes the linked
// content, so any change to code, toolchain or flags changes it, and reading it costs the
// executable's headers), the VCS revision of a clean checkout, else a digest of the
// executable, which costs a read of the whole file (about 70 ms for this provider) in
// every provider process that needs it.
var buildKey = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err == nil {
		if id := goBuildID(exe); id != "" {
			return "go:" + id
		}
	}
	if revision := cleanRevision(); revision != "" {
		return "vcs:" + revision
	}
	if err == nil {
		if sum := fileDigest(exe); sum != "" {
			return "exe:" + sum
		}
	}
	return "" // unknown: no record is written or trusted
})

// The name and type by which the Go linker marks its build ID note in an ELF executable.
const (
	goBuildNoteName = "Go\x00\x00"
	goBuildNoteType = 4
)

// goBuildID reads the build ID note of an ELF executable (its headers only, not the
// file). It answers "" for any other format and for an ID not of the form cmd/go writes
// (a link flag can set any text, even the same text for different code).
func goBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	section := f.Section(".note.go.buildid")
	if section == nil {
		return ""
	}
	note, err := section.Data()
	if err != nil || len(note) < 12 {
		return ""
	}
	nameSize, descSize, kind := f.ByteOrder.Uint32(note), f.ByteOrder.Uint32(note[4:]), f.ByteOrder.Uint32(note[8:])
	nameEnd := 12 + uint64(nameSize)
	descStart := 12 + (uint64(nameSize)+3)&^3
	if kind != goBuildNoteType || nameEnd > uint64(len(note)) || string(note[12:nameEnd]) != goBuildNoteName ||
		descStart+uint64(descSize) > uint64(len(note)) {
		return ""
	}
	id := string(note[descStart : descStart+uint64(descSize)])
	if !goFormBuildID(id) {
		return ""
	}
	return id
}

// goFormBuildID: the ID cmd/go writes into an executable, hashes in URL-safe base64
// separated by slashes, the last of them the linked content's.
func goFormBuildID(id string) bool {
	parts := strings.Split(id, "/")
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if len(part) < 20 {
			return false
		}
		for _, c := range []byte(part) {
			if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// cleanRevision is the VCS revision the build was stamped with, when its tree was clean.
func cleanRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if modified != "false" {
		return ""
	}
	return revision
}

func fileDigest(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
