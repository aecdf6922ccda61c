package knownanswers

import (
	"context"
	"runtime"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// requestKey carries a request's payload in its context, as terraform-plugin-go's loggers do.
type requestKey struct{}

// TestReleased_frameworkKeepsNothing: the framework keeps every request's context to the
// end of the process (released.go); through NewServer, 400 validations whose contexts
// each carry 64 KiB leave the heap within a few MiB of where it was, with the known
// answers on and off. Kept, they would hold 25 MiB.
func TestReleased_frameworkKeepsNothing(t *testing.T) {
	for _, value := range []string{"on", "off"} {
		t.Run(value, func(t *testing.T) {
			t.Setenv(SwitchVariable, value)
			server, err := NewServer(&thingProvider{calls: &calls{}})()
			if err != nil {
				t.Fatal(err)
			}
			q := newThingRequests()
			config := q.dynamic(t, q.typ, tftypes.NewValue(q.typ, map[string]tftypes.Value{
				"id": tftypes.NewValue(tftypes.String, nil), "name": tftypes.NewValue(tftypes.String, "x")}))
			before := heapAlloc()
			for range 400 {
				ctx := context.WithValue(context.Background(), requestKey{}, make([]byte, 64<<10))
				ctx, cancel := context.WithCancel(ctx) // gRPC cancels each request's context when it ends
				resp, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_thing", Config: config})
				cancel()
				if err != nil || len(resp.Diagnostics) > 0 {
					t.Fatalf("validate: %v %v", err, resp.Diagnostics)
				}
			}
			if grown := int64(heapAlloc()) - int64(before); grown > 4<<20 {
				t.Errorf("400 validations left the heap %d KiB larger, want under 4 MiB", grown>>10)
			}
			runtime.KeepAlive(server)
		})
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// capturing is a framework that keeps the context of its last validation, as the real one does.
type capturing struct {
	frameworkServer
	ctx, derived context.Context
	cancels      []context.CancelFunc
}

func (c *capturing) ValidateResourceConfig(ctx context.Context, _ *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	c.ctx = ctx
	derived, cancel := context.WithCancel(ctx)
	c.derived, c.cancels = derived, append(c.cancels, cancel) // kept, as the framework keeps them
	if ctx.Value(requestKey{}) != "payload" {
		return nil, context.Canceled
	}
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

// TestReleased_context: during the call the framework sees the request's values; the
// request's cancellation reaches what it derived; once it has answered, what it kept holds
// no value of the request and reads as cancelled.
func TestReleased_context(t *testing.T) {
	framework := &capturing{}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), requestKey{}, "payload"))
	if _, err := (released{framework}).ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{}); err != nil {
		t.Fatalf("the framework did not see the request's values: %v", err)
	}
	cancel()
	<-framework.derived.Done() // hangs, and the test times out, unless the cancellation reached it
	if framework.ctx.Value(requestKey{}) != nil || framework.ctx.Err() != context.Canceled {
		t.Errorf("the kept context still has %v (err %v)", framework.ctx.Value(requestKey{}), framework.ctx.Err())
	}
	select {
	case <-framework.ctx.Done():
	default:
		t.Error("the kept context is not done")
	}
}
