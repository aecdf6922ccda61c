package astra

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestLogsNeverHoldTheTokenOrTheKubeconfig(t *testing.T) {
	t.Setenv("TF_LOG_PROVIDER_ASTRA_API", "TRACE")
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)

	var n atomic.Int32
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		switch i := n.Add(1); {
		case i == 1: // the first POST meets a 503 and is retried
			reply(w, 503, "application/problem+json", problemJSON(24, "503", "Service unavailable", "try later"))
		case r.Method == http.MethodPut:
			// A hostile or buggy server echoing the request must not make the client log it.
			reply(w, 400, "application/problem+json", problemJSON(63, "400", "Kubeconfig not valid", "rejected"))
		default:
			w.Header().Set("X-Request-Id", "req-42")
			reply(w, 201, "application/json", credentialJSON)
		}
	})
	c := f.client(t)
	cc, err := KubeconfigCredential("", []byte(testKubeconfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	_, err = c.CreateCredential(ctx, cc)
	errs = append(errs, err)
	_, err = c.UpdateCredential(ctx, testCredential, cc)
	errs = append(errs, err)
	_, err = c.GetCredential(ctx, testCredential)
	errs = append(errs, err)
	if errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("unexpected results: %v", errs)
	}

	logs := out.String()
	secrets := map[string]string{
		"token":                   testToken,
		"kubeconfig token":        kubeSecretToken,
		"kubeconfig key":          kubeSecretKey,
		"kubeconfig as base64":    cc.KeyStore["base64"],
		"start of the base64":     cc.KeyStore["base64"][:24],
		"kubeconfig server entry": "api.prod-east.example.com",
	}
	for name, secret := range secrets {
		if strings.Contains(logs, secret) {
			t.Errorf("the %s appears in the logs", name)
		}
		for _, e := range errs {
			if e != nil && strings.Contains(e.Error(), secret) {
				t.Errorf("the %s appears in an error: %v", name, e)
			}
		}
	}
	if strings.Contains(strings.ToLower(logs), "bearer") {
		t.Error("the Authorization header appears in the logs")
	}

	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	var attempts, answers int
	for _, e := range entries {
		if e["@module"] != "provider."+LogSubsystem {
			t.Errorf("entry outside the subsystem: %v", e)
		}
		for _, field := range []string{logMethod, logPath, logAttempt, logLatency} {
			if _, ok := e[field]; !ok {
				t.Errorf("entry %q lacks %s: %v", e["@message"], field, e)
			}
		}
		switch e["@message"] {
		case "Astra API attempt":
			attempts++
		case "Astra API answer", "Astra API error answer":
			answers++
		}
	}
	if attempts != 4 || answers != 3 {
		t.Fatalf("%d attempt lines and %d answer lines, want 4 and 3:\n%s", attempts, answers, logs)
	}
	if !strings.Contains(logs, `"correlation_id":"req-42"`) || !strings.Contains(logs, `"correlation_id":"5b2a1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"`) ||
		!strings.Contains(logs, `"attempt":2`) || !strings.Contains(logs, `"status":503`) {
		t.Fatalf("expected correlation IDs, the retry's attempt number and statuses in:\n%s", logs)
	}
}

func TestLoggingIsSilentWithoutALogger(t *testing.T) {
	f := newFake(t, sequence([]int{200}, cloudJSON))
	if _, err := f.client(t).GetCloud(context.Background(), testCloud); err != nil {
		t.Fatalf("a context without a tflog root logger must still work: %v", err)
	}
}
