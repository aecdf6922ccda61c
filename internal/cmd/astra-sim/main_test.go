package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"sigs.k8s.io/yaml"
)

func TestParseFlagsDefaults(t *testing.T) {
	cfg, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.addr != "127.0.0.1:8080" || cfg.opts.Release != "23.07" || cfg.opts.AccountID != astrasim.DefaultAccountID || cfg.opts.Lenient || cfg.tls {
		t.Errorf("defaults: %+v", cfg)
	}
	if len(cfg.opts.Tokens) != 1 || cfg.opts.Tokens[astrasim.DefaultToken] != astrasim.RoleOwner {
		t.Errorf("default token: %v", cfg.opts.Tokens)
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{
		"-addr", ":0", "-release", "24.02", "-token", "ro:viewer", "-token", "boss", "-token", "ops:Admin",
		"-delay", "manage=2s", "-delay", "unmanage=1", "-lenient", "-put-returns-body", "-seed", "9",
		"-fault", "POST:/topology/v1/managedClusters:502:times=1", "-tls", "-ca-out", "ca.pem",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]astrasim.Role{"ro": astrasim.RoleViewer, "boss": astrasim.RoleOwner, "ops": astrasim.RoleAdmin}
	for tok, role := range want {
		if cfg.opts.Tokens[tok] != role {
			t.Errorf("token %s: %q, want %q", tok, cfg.opts.Tokens[tok], role)
		}
	}
	if cfg.shownToken().token != "boss" {
		t.Errorf("the printed token must be the first owner's, got %q", cfg.shownToken().token)
	}
	if cfg.opts.Delays.Manage != 2*time.Second || cfg.opts.Delays.Unmanage != time.Second {
		t.Errorf("delays: %+v", cfg.opts.Delays)
	}
	if !cfg.opts.Lenient || !cfg.opts.PutReturnsBody || cfg.opts.Seed != 9 || cfg.opts.Release != "24.02" || !cfg.tls || cfg.caOut != "ca.pem" {
		t.Errorf("options: %+v", cfg)
	}
	if len(cfg.faults) != 1 || cfg.faults[0].Kind != astrasim.FaultBadGateway || cfg.faults[0].Times != 1 {
		t.Errorf("faults: %+v", cfg.faults)
	}
}

func TestParseDayTwoFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-delay", "snapshot=3s", "-delay", "backup=1m", "-delay", "restore=5s", "-schedule-speed", "3600",
		"-fail-next-snapshot", "web", "-fail-next-backup", "web=the bucket is full", "-fail-next-backup", "db",
		"-fail-next-restore", "web=a volume could not be restored",
		"-fail-hook-source", "freeze", "-fail-hook-source", "thaw", "-namespace", "shop", "-namespace", "db",
		"-put-echo", "-weak-etag", "-etag-never-matches", "-hook-duration", "freeze=26m", "-hook-timeout", "20m",
		"-in-flight-ready"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.opts.Delays.Snapshot != 3*time.Second || cfg.opts.Delays.Backup != time.Minute || cfg.opts.Delays.Restore != 5*time.Second ||
		cfg.opts.ScheduleSpeed != 3600 {
		t.Errorf("delays %+v, speed %v", cfg.opts.Delays, cfg.opts.ScheduleSpeed)
	}
	want := []astrasim.FailNext{{Kind: "snapshot", App: "web"}, {Kind: "backup", App: "web", Reasons: []string{"the bucket is full"}}, {Kind: "backup", App: "db"},
		{Kind: "restore", App: "web", Reasons: []string{"a volume could not be restored"}}}
	if fmt.Sprint(cfg.opts.FailNext) != fmt.Sprint(want) {
		t.Errorf("fail-next: %+v", cfg.opts.FailNext)
	}
	if cfg.opts.HookDurations["freeze"] != 26*time.Minute || cfg.opts.HookTimeout != 20*time.Minute {
		t.Errorf("hook-duration %v, hook-timeout %v", cfg.opts.HookDurations, cfg.opts.HookTimeout)
	}
	if strings.Join(cfg.opts.FailHookSources, ",") != "freeze,thaw" {
		t.Errorf("fail-hook-source: %v", cfg.opts.FailHookSources)
	}
	if strings.Join(cfg.opts.Namespaces, ",") != "shop,db" || !cfg.opts.PutEcho || !cfg.opts.WeakETag || !cfg.opts.ETagNeverMatches {
		t.Errorf("namespaces %v, put-echo %v, weak-etag %v, etag-never-matches %v", cfg.opts.Namespaces, cfg.opts.PutEcho,
			cfg.opts.WeakETag, cfg.opts.ETagNeverMatches)
	}
	if !cfg.opts.InFlightReady {
		t.Error("-in-flight-ready not set")
	}
	if def, _ := parseFlags(nil, io.Discard); def.opts.ScheduleSpeed != 1 || def.opts.InFlightReady {
		t.Errorf("default schedule speed %v", def.opts.ScheduleSpeed)
	}
}

func TestParseFlagsErrors(t *testing.T) {
	cases := map[string][]string{
		"exclude each other": {"-strict", "-lenient"},
		"needs -tls":         {"-ca-out", "x.pem"},
		"unknown role":       {"-token", "t:root"},
		"given twice":        {"-token", "t", "-token", "t:viewer"},
		"must not be empty":  {"-token", ":viewer"},
		"unknown delay":      {"-delay", "teleport=1s"},
		"NAME=DURATION":      {"-delay", "manage"},
		"-delay":             {"-delay", "manage=soon"},
		"unknown fault kind": {"-fault", "GET:*:418"},
		"known releases":     {"-release", "21.01"},
		"unexpected":         {"extra"},
		"-schedule-speed":    {"-schedule-speed", "0"},
		"positive number":    {"-schedule-speed", "-5"},
		"-fail-next-backup":  {"-fail-next-backup", "=why"},
		"snapshot":           {"-fail-next-snapshot", ""},
		"-fail-hook-source":  {"-fail-hook-source", ""},
		"-fail-next-restore": {"-fail-next-restore", ""},
		"-hook-duration":     {"-hook-duration", "freeze"},
		"must be positive":   {"-hook-timeout", "0s"},
	}
	for want, args := range cases {
		if _, err := parseFlags(args, io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one mentioning %q", args, err, want)
		}
	}
	var out bytes.Buffer
	if _, err := parseFlags([]string{"-help"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: %v", err)
	}
	for _, want := range []string{"-fault SPEC", "METHOD:ROUTE:KIND", "retry-after", "recollect", "-state-file",
		"snapshot   a snapshot", "backup     a backup", "-schedule-speed N", "-fail-next-snapshot APP[=REASON]", "-fail-next-backup APP[=REASON]",
		"-fail-next-restore APP[=REASON]", "restore    a clone: provisioning -> discovering", "delete     DELETE of a snapshot or backup", "-fail-hook-source name", "execution hooks and hook sources", "-namespace NAME", "-put-echo", "-weak-etag",
		"-etag-never-matches", "-in-flight-ready", "app        POST apps: discovering -> ready"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-help does not mention %q", want)
		}
	}
}

// syncBuffer is stdout shared between run and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// started is a running astra-sim with what it printed.
type started struct {
	out    *syncBuffer
	vars   map[string]string
	cancel context.CancelFunc
	done   chan error
}

func start(t *testing.T, args ...string) *started {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &started{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1), vars: map[string]string{}}
	go func() { s.done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), s.out) }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.out.String(), "# private cloud") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("astra-sim did not start: %s", s.out.String())
		}
		select {
		case err := <-s.done:
			t.Fatalf("astra-sim exited: %v\n%s", err, s.out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	for _, line := range strings.Split(s.out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(rest, "=")
			s.vars[k] = v
		}
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *started) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("astra-sim did not stop")
	}
}

func (s *started) call(t *testing.T, client *http.Client, method, path, body string) int {
	t.Helper()
	req, _ := http.NewRequest(method, s.vars["ASTRA_ENDPOINT"]+"/accounts/"+s.vars["ASTRA_ACCOUNT_ID"]+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.vars["ASTRA_API_TOKEN"])
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestRunPrintsVariablesAndStopsCleanly(t *testing.T) {
	s := start(t, "-token", "reader:viewer", "-token", "writer:owner", "-fault", "GET:/topology/v1/clouds:503:times=1")
	if !strings.HasPrefix(s.vars["ASTRA_ENDPOINT"], "http://127.0.0.1:") || strings.HasSuffix(s.vars["ASTRA_ENDPOINT"], ":0") {
		t.Errorf("ASTRA_ENDPOINT=%q", s.vars["ASTRA_ENDPOINT"])
	}
	if s.vars["ASTRA_ACCOUNT_ID"] != astrasim.DefaultAccountID || s.vars["ASTRA_API_TOKEN"] != "writer" {
		t.Errorf("printed %v", s.vars)
	}
	if _, ok := s.vars["ASTRA_INSECURE_SKIP_VERIFY"]; ok {
		t.Error("plain HTTP must not suggest skipping TLS verification")
	}
	if got := s.call(t, http.DefaultClient, "GET", "/topology/v1/clouds", ""); got != 503 {
		t.Errorf("the -fault did not fire: %d", got)
	}
	if got := s.call(t, http.DefaultClient, "GET", "/topology/v1/clouds", ""); got != 200 {
		t.Errorf("second GET: %d", got)
	}
	s.stop(t)
	if !strings.Contains(s.out.String(), "astra-sim: stopped") {
		t.Errorf("no clean stop: %s", s.out.String())
	}
	if _, err := http.Get(s.vars["ASTRA_ENDPOINT"]); err == nil {
		t.Error("still serving after stop")
	}
}

func TestRunStateFileSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := start(t, "-state-file", path)
	cloud := `{"type":"application/astra-cloud","version":"1.1","name":"lab","cloudType":"private"}`
	if got := first.call(t, http.DefaultClient, "POST", "/topology/v1/clouds", cloud); got != 201 {
		t.Fatalf("POST cloud: %d", got)
	}
	// Saved after the change already, not only at exit.
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), `"name": "lab"`) {
		t.Errorf("state after the POST: %v", err)
	}
	first.stop(t)
	second := start(t, "-state-file", path)
	if got := second.call(t, http.DefaultClient, "POST", "/topology/v1/clouds", cloud); got != 409 {
		t.Errorf("the cloud did not survive the restart: POST again answered %d, want 409", got)
	}
	second.stop(t)
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	// A state file of another release is refused.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := run(ctx, []string{"-addr", "127.0.0.1:0", "-state-file", path, "-release", "24.02"}, io.Discard); err == nil || !strings.Contains(err.Error(), "release") {
		t.Errorf("another release's state: %v", err)
	}
}

func TestRunTLS(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.pem")
	s := start(t, "-tls", "-ca-out", ca)
	if !strings.HasPrefix(s.vars["ASTRA_ENDPOINT"], "https://") || s.vars["ASTRA_CA_CERTIFICATE_FILE"] != ca {
		t.Errorf("printed %v", s.vars)
	}
	pem, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("-ca-out did not write a PEM certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if got := s.call(t, client, "GET", "/topology/v1/clouds", ""); got != 200 {
		t.Errorf("GET over TLS: %d", got)
	}
	// A relative -ca-out is printed absolute: the provider may run in another directory.
	t.Chdir(filepath.Dir(ca))
	relative := start(t, "-tls", "-ca-out", "rel.pem")
	if want := filepath.Join(filepath.Dir(ca), "rel.pem"); relative.vars["ASTRA_CA_CERTIFICATE_FILE"] != want {
		t.Errorf("ASTRA_CA_CERTIFICATE_FILE=%q, want %q", relative.vars["ASTRA_CA_CERTIFICATE_FILE"], want)
	}
	plain := start(t, "-tls")
	if plain.vars["ASTRA_INSECURE_SKIP_VERIFY"] != "true" {
		t.Errorf("-tls without -ca-out should offer ASTRA_INSECURE_SKIP_VERIFY: %v", plain.vars)
	}
}

func TestShellQuote(t *testing.T) {
	cases := map[string]string{
		"http://127.0.0.1:8080": "http://127.0.0.1:8080",
		"tok en":                "'tok en'",
		"it's":                  `'it'\''s'`,
		"":                      "''",
		"$(rm -rf /)":           "'$(rm -rf /)'",
	}
	for in, want := range cases {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// -kubeconfig-out writes a kubeconfig the simulator itself accepts as a credential (strict
// mode: converted to JSON, as clients do), so examples can run against it unchanged.
func TestRunWritesAcceptedKubeconfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig.yaml")
	s := start(t, "-kubeconfig-out", path)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	asJSON, err := yaml.YAMLToJSON(text)
	if err != nil {
		t.Fatalf("-kubeconfig-out did not write YAML: %v", err)
	}
	body := `{"type":"application/astra-credential","version":"1.1","name":"sim","keyType":"kubeconfig",` +
		`"keyStore":{"base64":"` + base64.StdEncoding.EncodeToString(asJSON) + `"}}`
	if got := s.call(t, http.DefaultClient, "POST", "/core/v1/credentials", body); got != http.StatusCreated {
		t.Fatalf("POST credential with the written kubeconfig: %d, want 201", got)
	}
}

// A CI script can tell a wrong command line (2) from a simulator that cannot serve (1),
// and every message names the flag at fault. Nothing goes to stdout but -help's usage.
func TestExitCodes(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	missingDir := filepath.Join(dir, "no", "such", "dir")
	cases := []struct {
		args       []string
		wantCode   int
		wantStderr string // "" means nothing on stderr
	}{
		{[]string{"-help"}, exitOK, ""},
		{[]string{"-bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{[]string{"-seed", "x"}, exitUsage, `invalid value "x" for flag -seed`},
		{[]string{"-addr"}, exitUsage, "flag needs an argument: -addr"},
		{[]string{"-release", "21.01"}, exitUsage, `-release "21.01"`},
		{[]string{"-delay", "manage"}, exitUsage, `-delay "manage"`},
		{[]string{"-ca-out", "ca.pem"}, exitUsage, "-ca-out needs -tls"},
		{[]string{"stray"}, exitUsage, "unexpected arguments: stray"},
		{[]string{"-addr", busy.Addr().String()}, exitFail, "-addr: listen tcp " + busy.Addr().String()},
		{[]string{"-addr", "127.0.0.1:0", "-state-file", garbage}, exitFail, "-state-file: "},
		{[]string{"-addr", "127.0.0.1:0", "-kubeconfig-out", filepath.Join(missingDir, "kc")}, exitFail, "-kubeconfig-out: "},
		{[]string{"-addr", "127.0.0.1:0", "-ready-file", filepath.Join(missingDir, "ready")}, exitFail, "-ready-file: "},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		code := exitCode(run(ctx, c.args, &stdout), &stderr)
		cancel()
		if code != c.wantCode {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.wantCode, stderr.String())
		}
		if c.wantStderr == "" {
			if stderr.Len() > 0 {
				t.Errorf("%v: stderr %q, want nothing", c.args, stderr.String())
			}
		} else if !strings.HasPrefix(stderr.String(), "astra-sim: ") || !strings.Contains(stderr.String(), c.wantStderr) {
			t.Errorf("%v: stderr %q, want it to contain %q", c.args, stderr.String(), c.wantStderr)
		}
		if c.wantCode == exitUsage && !strings.Contains(stderr.String(), "astra-sim -help") {
			t.Errorf("%v: a usage error should point at -help: %q", c.args, stderr.String())
		}
		if gotUsage := strings.Contains(stdout.String(), "Usage: astra-sim"); gotUsage != (c.args[0] == "-help") {
			t.Errorf("%v: usage printed on stdout: %v", c.args, gotUsage)
		}
	}
}

// readVarsFile parses the NAME=value lines of a ready file.
func readVarsFile(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("ready file line %q is not NAME=value:\n%s", line, data)
		}
		vars[k] = v
	}
	return vars
}

// -ready-file: a script waits for the file, not for output. It appears only once the
// simulator answers, replaces a stale one, holds what the banner exports, and is removed
// at a clean stop.
func TestRunReadyFile(t *testing.T) {
	dir := t.TempDir()
	ready := filepath.Join(dir, "astra-sim.env")
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ready, []byte("ASTRA_ENDPOINT=http://stale.invalid\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-tls", "-ca-out", ca, "-ready-file", ready, "-token", "ci-token"}, out)
	}()
	var vars map[string]string
	for deadline := time.Now().Add(10 * time.Second); ; {
		if data, err := os.ReadFile(ready); err == nil && !strings.Contains(string(data), "stale") {
			vars = readVarsFile(t, ready)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ready file; output:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Exactly the variables the banner exports, in the same form.
	printed := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(rest, "=")
			printed[k] = v
		}
	}
	if len(vars) != 4 || vars["ASTRA_API_TOKEN"] != "ci-token" || vars["ASTRA_CA_CERTIFICATE_FILE"] != ca {
		t.Errorf("ready file: %v", vars)
	}
	for k, v := range vars {
		if printed[k] != v {
			t.Errorf("ready file %s=%s, banner %s=%s", k, v, k, printed[k])
		}
	}
	if info, err := os.Stat(ready); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("ready file mode: %v %v (it holds the token: want 0600)", info.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("temporary files left beside the ready file: %v", entries)
	}
	// It answers /healthz without a token, over the TLS the file describes.
	pem, err := os.ReadFile(vars["ASTRA_CA_CERTIFICATE_FILE"])
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(vars["ASTRA_ENDPOINT"] + astrasim.HealthPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"status":"ok"`) {
		t.Errorf("GET /healthz: %d %s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(ready); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the ready file outlived the simulator: %v", err)
	}
}

// A simulator stopping after another one took over its -ready-file leaves that file alone.
func TestRunReadyFileKeepsANewerOne(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "astra-sim.env")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-ready-file", ready}, io.Discard) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no ready file")
		}
	}
	newer := "ASTRA_ENDPOINT=http://127.0.0.1:1\n"
	if err := os.WriteFile(ready, []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(ready); err != nil || string(got) != newer {
		t.Errorf("the newer ready file was touched: %q, %v", got, err)
	}
}
