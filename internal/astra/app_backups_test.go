package astra

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const backupsRoute = "/k8s/v1/apps/{app_id}/appBackups"

func TestAppBackupsAgainstTheSimulator(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Delays: astrasim.Delays{Backup: 60 * time.Millisecond}})
	ctx := context.Background()
	snap, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "base"})
	if err != nil {
		t.Fatal(err)
	}
	created, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "weekly", SnapshotID: snap.ID, BucketID: f.bucketID})
	if err != nil {
		t.Fatal(err)
	}
	// The POST answer is what NetApp's captured answers carry: no progress, no snapshotID.
	if created.State != "pending" || created.PercentDone != nil || created.TotalBytes != nil || created.BucketID != f.bucketID {
		t.Fatalf("POST answer: %+v", created)
	}
	if got, err := f.c.GetAppBackup(ctx, f.appID, created.ID); err != nil || got.SnapshotID != snap.ID || got.PercentDone == nil || *got.PercentDone != 0 {
		t.Fatalf("GET answer: %+v %v", got, err)
	}
	done, err := WaitFrom(ctx, fastWait, created, func(ctx context.Context) (*AppBackup, error) {
		return f.c.GetAppBackup(ctx, f.appID, created.ID)
	}, AppBackupCompleted)
	if err != nil || done.State != "completed" || *done.PercentDone != 100 || *done.BytesDone != *done.TotalBytes || done.BackupCreationTimestamp == "" {
		t.Fatalf("after the wait: %+v %v", done, err)
	}
	byID, err := f.c.GetAppBackupByID(ctx, created.ID)
	if err != nil || byID.Name != "weekly" {
		t.Fatalf("by ID: %+v %v", byID, err)
	}
	all, err := f.c.ListAllAppBackups(ctx, ListOptions{})
	if err != nil || len(all) != 1 {
		t.Fatalf("account-wide: %+v %v", all, err)
	}
	mine, err := f.c.ListAppBackups(ctx, f.appID, ListOptions{})
	if err != nil || len(mine) != 1 || mine[0].BucketID != f.bucketID {
		t.Fatalf("the app's: %+v %v", mine, err)
	}
	if found, err := f.c.FindAppBackup(ctx, f.appID, "weekly"); err != nil || found == nil || found.ID != created.ID {
		t.Fatalf("find: %+v %v", found, err)
	}
	// The bucket holds the backup: the service names it when refusing to forget the bucket.
	if err := f.c.DeleteBucket(ctx, f.bucketID); ProblemNumber(err) != ProblemBucketInUse {
		t.Errorf("deleting the bucket: %v", err)
	}
	if err := f.c.DeleteAppBackup(ctx, f.appID, created.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.GetAppBackup(ctx, f.appID, created.ID); !IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
	if n := f.sim.Count("POST", backupsRoute); n != 1 {
		t.Errorf("%d POSTs", n)
	}
}

// A failed backup: the wait ends with the service's reasons; a DELETE with Force-Delete
// removes it.
func TestFailedAppBackupIsForceDeleted(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{FailNext: []astrasim.FailNext{{Kind: astrasim.FailBackup, App: "web", Reasons: []string{"the object store refused the write"}}}})
	ctx := context.Background()
	created, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "doomed"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = WaitFrom(ctx, fastWait, created, func(ctx context.Context) (*AppBackup, error) {
		return f.c.GetAppBackup(ctx, f.appID, created.ID)
	}, AppBackupCompleted)
	var terminal *TerminalStateError
	if !errors.As(err, &terminal) || terminal.Error() != "backup "+created.ID+" is failed: the object store refused the write" {
		t.Fatalf("wait: %v", err)
	}
	// Force-Delete is optional in NetApp's "Delete a backup" workflow (the simulator takes a
	// failed backup's DELETE without it); the client sends it when asked, and it is accepted.
	if err := f.c.DeleteAppBackup(ctx, f.appID, created.ID, true); err != nil {
		t.Fatal(err)
	}
	if n := f.sim.Count(http.MethodDelete, backupsRoute+"/{appBackup_id}"); n != 1 {
		t.Errorf("%d DELETEs", n)
	}
	if _, err := f.c.GetAppBackup(ctx, f.appID, created.ID); !IsNotFound(err) {
		t.Errorf("the failed backup after its DELETE: %v", err)
	}
}

func TestAppBackupRunInProgress(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Delays: astrasim.Delays{Backup: time.Hour}})
	ctx := context.Background()
	created, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "long"})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		f.c.DeleteAppBackup(ctx, f.appID, created.ID, true),
		f.c.DeleteApp(ctx, f.appID),
		func() error { _, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "second"}); return err }(),
	} {
		if !RunInProgress(err) {
			t.Errorf("while a backup runs: %v", err)
		}
	}
	// The POST answer has no percentDone (NetApp's captured answers); a GET has.
	if what, state := created.Describe(); what != "backup "+created.ID || state != "state pending" {
		t.Errorf("Describe the POST answer: %q %q", what, state)
	}
	got, err := f.c.GetAppBackup(ctx, f.appID, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	what, state := got.Describe()
	if what != "backup "+created.ID || state != "state pending, percentDone 0%" {
		t.Errorf("Describe: %q %q", what, state)
	}
}

func TestAppBackupLostAnswerIsFoundByName(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: backupsRoute, Kind: astrasim.FaultLostAnswer, Times: 1})
	ctx := context.Background()
	if _, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "lost"}); !IsUnknownOutcome(err) {
		t.Fatalf("err %v, want an unknown outcome", err)
	}
	found, err := f.c.FindAppBackup(ctx, f.appID, "lost")
	if err != nil || found == nil || found.BucketID != f.bucketID {
		t.Fatalf("the backup the lost POST took: %+v %v", found, err)
	}
	if n := f.sim.Count("POST", backupsRoute); n != 1 {
		t.Errorf("%d POSTs; a lost POST must not be repeated", n)
	}
}
