package main

import (
	"context"
	"crypto/tls"
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
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// run starts the simulator and serves until ctx is done, then shuts down cleanly and
// saves the state file. Everything it prints goes to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err != nil {
		return usageError{err}
	}
	sim, err := astrasim.New(cfg.opts)
	if err != nil {
		return err
	}
	for _, f := range cfg.faults {
		sim.AddFault(f)
	}
	if cfg.stateFile != "" {
		if err := sim.LoadState(cfg.stateFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("-state-file: %w", err)
		}
	}
	if cfg.kubeOut != "" {
		// The simulator never contacts the server; the name and URL only make it recognisable.
		kc := astrasim.TestKubeconfig("sim-cluster", "https://sim-cluster.k8s.example:6443")
		if err := os.WriteFile(cfg.kubeOut, kc, 0o600); err != nil {
			return fmt.Errorf("-kubeconfig-out: %w", err)
		}
	}
	// A ready file left by an earlier run must not make a script think this one serves.
	if cfg.readyFile != "" {
		if err := os.Remove(cfg.readyFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("-ready-file: %w", err)
		}
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	scheme := "http"
	if cfg.tls {
		cert, caPEM, err := astrasim.SelfSignedCertificate(certHosts(ln.Addr())...)
		if err != nil {
			ln.Close()
			return err
		}
		if cfg.caOut != "" {
			if err := os.WriteFile(cfg.caOut, caPEM, 0o644); err != nil {
				ln.Close()
				return fmt.Errorf("-ca-out: %w", err)
			}
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}
	endpoint := scheme + "://" + dialable(ln.Addr())
	logger := &lineWriter{w: stdout}
	srv := &http.Server{Handler: persisting(sim, cfg.stateFile, logger), ReadHeaderTimeout: 10 * time.Second}
	printBanner(logger, cfg, sim, endpoint)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// The listener is open, so a client that reads the ready file connects at once.
	if cfg.readyFile != "" {
		content := readyFileContent(envVars(cfg, sim, endpoint))
		if err := writeFileAtomic(cfg.readyFile, content); err != nil {
			_ = srv.Close()
			return fmt.Errorf("-ready-file: %w", err)
		}
		// Only our own: a simulator started since with the same -ready-file keeps its file.
		defer func() {
			if now, err := os.ReadFile(cfg.readyFile); err == nil && string(now) == content {
				_ = os.Remove(cfg.readyFile)
			}
		}()
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if cfg.stateFile != "" {
		if err := sim.SaveState(cfg.stateFile); err != nil {
			return err
		}
	}
	logger.printf("astra-sim: stopped")
	return nil
}

// persisting saves the state after every request that may have changed it.
func persisting(sim *astrasim.Sim, path string, log *lineWriter) http.Handler {
	if path == "" {
		return sim
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sim.ServeHTTP(w, r)
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if err := sim.SaveState(path); err != nil {
			log.printf("astra-sim: saving %s: %v", path, err)
		}
	})
}

func printBanner(out *lineWriter, cfg *config, sim *astrasim.Sim, endpoint string) {
	mode := "strict"
	if cfg.opts.Lenient {
		mode = "lenient"
	}
	seeds := sim.Seeds()
	out.printf("astra-sim: Astra Control API %s simulator on %s (%s request validation)", sim.Release(), endpoint, mode)
	out.printf("# Point the provider at it (token role: %s):", cfg.shownToken().role)
	for _, v := range envVars(cfg, sim, endpoint) {
		if v.name == "ASTRA_INSECURE_SKIP_VERIFY" {
			out.printf("# self-signed certificate: trust it with -ca-out FILE, or skip verification:")
		}
		out.printf("export %s=%s", v.name, shellQuote(v.value))
	}
	out.printf("# private cloud %s", seeds.PrivateCloudID)
	for _, pc := range []struct {
		name string
		c    astrasim.PublicCloud
	}{{"GCP", seeds.GCP}, {"Azure", seeds.Azure}, {"AWS", seeds.AWS}} {
		out.printf("# %s cloud %s: cluster %s %s (ineligible: %s %s)", pc.name, pc.c.CloudID,
			pc.c.ClusterName, pc.c.ClusterID, pc.c.IneligibleClusterName, pc.c.IneligibleClusterID)
	}
}

type envVar struct{ name, value string }

// envVars are the variables that point the provider at the simulator, in print order.
func envVars(cfg *config, sim *astrasim.Sim, endpoint string) []envVar {
	vars := []envVar{
		{"ASTRA_ENDPOINT", endpoint},
		{"ASTRA_ACCOUNT_ID", sim.AccountID()},
		{"ASTRA_API_TOKEN", cfg.shownToken().token},
	}
	switch {
	case cfg.tls && cfg.caOut != "":
		// Absolute, so the variable still works where the provider runs (another directory).
		ca, err := filepath.Abs(cfg.caOut)
		if err != nil {
			ca = cfg.caOut
		}
		vars = append(vars, envVar{"ASTRA_CA_CERTIFICATE_FILE", ca})
	case cfg.tls:
		vars = append(vars, envVar{"ASTRA_INSECURE_SKIP_VERIFY", "true"})
	}
	return vars
}

// readyFileContent is NAME=value lines, sh-quoted where needed so `. FILE` works; the
// default values need no quoting, so it is also a GitHub Actions env file.
func readyFileContent(vars []envVar) string {
	var b strings.Builder
	for _, v := range vars {
		fmt.Fprintf(&b, "%s=%s\n", v.name, shellQuote(v.value))
	}
	return b.String()
}

// writeFileAtomic writes a temporary file beside path, then renames it: a script never
// reads a half-written file. Mode 0600 (os.CreateTemp's): the ready file holds the token.
func writeFileAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.WriteString(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lineWriter prints whole lines from several goroutines.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// dialable turns a listen address into one a client can use (0.0.0.0 -> 127.0.0.1).
func dialable(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, fmt.Sprint(tcp.Port))
}

// certHosts are the names the certificate is valid for.
func certHosts(addr net.Addr) []string {
	hosts := []string{"127.0.0.1", "::1", "localhost"}
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP != nil && !tcp.IP.IsUnspecified() && !tcp.IP.IsLoopback() {
		hosts = append(hosts, tcp.IP.String())
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		hosts = append(hosts, name)
	}
	return hosts
}

// shellQuote quotes a value for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
