package provider

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// bucketInUseGrace is how long a bucket's DELETE refused as in use (409/83) is asked again,
// within timeouts.delete when that is shorter. What the refusal names may be going in the
// same apply: a protection policy that leaves bucket_id out (or names the bucket through a
// data source) gives Terraform no dependency on the bucket, so the policy's delete and the
// bucket's run in parallel, and the bucket's may reach Astra Control first. Such a delete
// takes one request; half a minute covers it on a slow link, and a bucket really in use
// fails no more than that later.
const bucketInUseGrace = 30 * time.Second

// deleteBucket deletes the bucket, asking again for bucketInUseGrace while Astra Control
// refuses it as in use. It returns the last answer: nil, or the error (a 409/83 when the
// bucket stayed in use).
func deleteBucket(ctx context.Context, schedule astra.Schedule, client *astra.Client, id string) error {
	graceCtx, cancel := context.WithTimeout(ctx, bucketInUseGrace)
	defer cancel()
	every := max(schedule.Max, schedule.Min, 10*time.Millisecond)
	var refused error // the last 409/83
	logged := ""
	for {
		err := client.DeleteBucket(graceCtx, id)
		switch {
		case refused != nil && graceCtx.Err() != nil:
			return refused // the window ended during the request
		case !astra.IsConflict(err) || astra.ProblemNumber(err) != problemBucketInUse:
			return err
		}
		refused = err
		if detail := problemDetail(err); detail != logged {
			logged = detail
			tflog.Info(ctx, "Waiting to delete the bucket: Astra Control refuses it as in use (problem 83): "+detail,
				map[string]any{"bucket_id": id, "grace": bucketInUseGrace.String()})
		}
		select {
		case <-graceCtx.Done():
			return refused
		case <-time.After(every):
		}
	}
}

// problemDetail is what an API error's problem says beyond its title ("" if nothing).
func problemDetail(err error) string {
	var apiErr *astra.APIError
	if errors.As(err, &apiErr) && apiErr.Detail != apiErr.Title {
		return apiErr.Detail
	}
	return ""
}

// inUseByWhatServiceSays explains a refusal when the listings found nothing using the bucket
// (what used it went meanwhile, or is something they do not show, such as a snapshot kept in
// the bucket): what the service's problem names, as its detail says it.
func inUseByWhatServiceSays(err error) string {
	if detail := problemDetail(err); detail != "" {
		return " Astra Control says why: \"" + detail + "\" No default setting, protection policy or backup found now " +
			"uses it: destroy again once what Astra Control names is gone."
	}
	return " Astra Control does not say what uses it, and no default setting, protection policy or backup found now " +
		"does: destroy again once nothing uses it."
}
