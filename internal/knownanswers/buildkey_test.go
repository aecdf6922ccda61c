package knownanswers

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The key of a build, stamped with a commit or not (this machine's Go builds with
// -buildvcs=false, and test binaries carry no stamp), is the build ID the linker wrote,
// read from the executable's headers, not a digest of the whole file.
func TestBuildKeyIsTheLinkersBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	key := buildKey()
	if runtime.GOOS != "linux" {
		if key == "" {
			t.Fatal("no build key: no record would be written or trusted")
		}
		return
	}
	want := "go:" + toolBuildID(t, exe)
	if key != want {
		t.Fatalf("build key %q, want %q (go tool buildid)", key, want)
	}
}

// A build ID set by a link flag is any text the builder chose, the same for different
// code if they like: it does not key a build, the executable's digest does.
func TestBuildKeyIgnoresABuildIDSetByHand(t *testing.T) {
	if runtime.GOOS != "linux" {
		if exe, err := os.Executable(); err != nil || goBuildID(exe) != "" {
			t.Fatalf("%s: a build ID from a note only ELF executables have (%v)", runtime.GOOS, err)
		}
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hand\n\ngo 1.21\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ldflags, want string
	}{
		{"", "the tool's"},
		{"-buildid=same-for-every-build", ""},
		{"-buildid=", ""},
	} {
		exe := filepath.Join(dir, "hand")
		build := exec.Command(goTool(t), "build", "-ldflags="+tc.ldflags, "-o", exe, ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build -ldflags=%q: %v\n%s", tc.ldflags, err, out)
		}
		want := tc.want
		if want == "the tool's" {
			want = toolBuildID(t, exe)
		}
		if got := goBuildID(exe); got != want {
			t.Errorf("-ldflags=%q: build ID %q, want %q", tc.ldflags, got, want)
		}
	}
	if got := goBuildID(filepath.Join(dir, "main.go")); got != "" {
		t.Errorf("a file that is not an executable: build ID %q, want none", got)
	}
}

func TestGoFormBuildID(t *testing.T) {
	for id, want := range map[string]bool{
		"SFCwtLwUhWpScCb5f3VJ/CgwKR-ckc1736BPPLKxM/kLAAIJ7bdkd45qryo-Ce/msd5hS_PKMQGxmYSXyPK": true,
		"SFCwtLwUhWpScCb5f3VJ/msd5hS_PKMQGxmYSXyPK":                                           true,
		"SFCwtLwUhWpScCb5f3VJmsd5hS_PKMQGxmYSXyPK":                                            false, // one part
		"SFCwtLwUhWpScCb5f3VJ/short":                                                          false,
		"SFCwtLwUhWpScCb5f3VJ/msd5hS+PKMQGxmYSXyPK":                                           false, // not URL-safe base64
		"SFCwtLwUhWpScCb5f3VJ//msd5hS_PKMQGxmYSXyPK":                                          false,
		"": false,
	} {
		if got := goFormBuildID(id); got != want {
			t.Errorf("goFormBuildID(%q) = %v, want %v", id, got, want)
		}
	}
}

func goTool(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command reads the build ID to compare with: %v", err)
	}
	return path
}

func toolBuildID(t *testing.T, exe string) string {
	t.Helper()
	out, err := exec.Command(goTool(t), "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid %s: %v", exe, err)
	}
	return strings.TrimSpace(string(out))
}
