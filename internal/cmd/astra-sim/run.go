package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// run starts the simulator and serves until ctx is done, then shuts down cleanly and
// saves the state file. Everything it prints goes to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, err := parseFlags(args, stdout)
	if err != nil {
		return err
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
			return err
		}
	}
	if cfg.kubeOut != "" {
		// The simulator never contacts the server; the name and URL only make it recognisable.
		kc := astrasim.TestKubeconfig("sim-cluster", "https://sim-cluster.k8s.example:6443")
		if err := os.WriteFile(cfg.kubeOut, kc, 0o600); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
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
				return err
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
	shown := cfg.shownToken()
	seeds := sim.Seeds()
	out.printf("astra-sim: Astra Control API %s simulator on %s (%s request validation)", sim.Release(), endpoint, mode)
	out.printf("# Point the provider at it (token role: %s):", shown.role)
	out.printf("export ASTRA_ENDPOINT=%s", shellQuote(endpoint))
	out.printf("export ASTRA_ACCOUNT_ID=%s", shellQuote(sim.AccountID()))
	out.printf("export ASTRA_API_TOKEN=%s", shellQuote(shown.token))
	if cfg.tls {
		if cfg.caOut != "" {
			out.printf("export ASTRA_CA_CERTIFICATE_FILE=%s", shellQuote(cfg.caOut))
		} else {
			out.printf("# self-signed certificate: trust it with -ca-out FILE, or skip verification:")
			out.printf("export ASTRA_INSECURE_SKIP_VERIFY=true")
		}
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
