package tridentprotect

import (
	"strings"
	"testing"
)

// The validator must be able to fail: each case breaks one documented rule of a valid
// manifest and expects the failure that names it.
func TestValidateManifestCatchesDepartures(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{})
	base := map[string]Manifest{
		KindAppVault:    find(t, r, KindAppVault, "minio"),
		KindApplication: find(t, r, KindApplication, "mysql"),
		KindSchedule:    find(t, r, KindSchedule, "mysql-weekly-schedule"),
		KindExecHook:    find(t, r, KindExecHook, "mysql-quiesce"),
	}
	for kind, m := range base {
		if errs := validateManifest(m.Object); len(errs) != 0 {
			t.Fatalf("the valid %s fails: %v", kind, errs)
		}
	}
	cases := []struct {
		name   string
		kind   string
		mutate func(obj map[string]any)
		want   string
	}{
		{"unknown spec field", KindSchedule, func(o map[string]any) { spec(o)["retention"] = "3" }, `field "retention" is not defined by the docs`},
		{"unknown top-level field", KindApplication, func(o map[string]any) { o["status"] = map[string]any{} }, `field "status" is not defined by the docs`},
		{"unknown metadata field", KindExecHook, func(o map[string]any) { meta(o)["finalizers"] = []any{} }, `field "finalizers" is not defined by the docs`},
		{"unknown nested field", KindAppVault, func(o map[string]any) { s3(o)["region"] = "us-east-1" }, `spec.providerConfig.s3: field "region" is not defined by the docs`},
		{"missing required spec field", KindSchedule, func(o map[string]any) { delete(spec(o), "appVaultRef") }, `spec: required field "appVaultRef" is missing`},
		{"missing spec", KindExecHook, func(o map[string]any) { delete(o, "spec") }, `required field "spec" is missing`},
		{"missing name", KindAppVault, func(o map[string]any) { delete(meta(o), "name") }, `metadata: required field "name" is missing`},
		{"missing nested required", KindAppVault, func(o map[string]any) { delete(s3(o), "bucketName") }, `required field "bucketName" is missing`},
		{"missing secret key name", KindAppVault, func(o map[string]any) {
			delete(spec(o)["providerCredentials"].(map[string]any)["accessKeyID"].(map[string]any)["valueFromSecret"].(map[string]any), "name")
		}, `spec.providerCredentials.accessKeyID.valueFromSecret: required field "name" is missing`},
		{"enum: granularity", KindSchedule, func(o map[string]any) { spec(o)["granularity"] = "weekly" }, `"weekly" is not one of [Hourly Daily Weekly Monthly Custom]`},
		{"enum: providerType", KindAppVault, func(o map[string]any) { spec(o)["providerType"] = "generic-s3" }, `"generic-s3" is not one of`},
		{"enum: stage", KindExecHook, func(o map[string]any) { spec(o)["stage"] = "pre" }, `"pre" is not one of [Pre Post]`},
		{"enum: action", KindExecHook, func(o map[string]any) { spec(o)["action"] = "Clone" }, `"Clone" is not one of`},
		{"enum: criterion type", KindExecHook, func(o map[string]any) {
			spec(o)["matchingCriteria"].([]any)[0].(map[string]any)["type"] = "image"
		}, `spec.matchingCriteria[0].type: "image" is not one of`},
		{"enum: secure", KindAppVault, func(o map[string]any) { s3(o)["secure"] = "no" }, `"no" is not one of [true false]`},
		{"enum: reclaim policy", KindSchedule, func(o map[string]any) { spec(o)["backupReclaimPolicy"] = "Keep" }, `"Keep" is not one of [Retain Delete]`},
		{"enum: selector operator", KindApplication, func(o map[string]any) {
			ns := spec(o)["includedNamespaces"].([]any)[0].(map[string]any)
			ns["labelSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "a", "operator": "Equals"}}}
		}, `"Equals" is not one of [In NotIn Exists DoesNotExist]`},
		{"type: enabled as string", KindSchedule, func(o map[string]any) { spec(o)["enabled"] = "true" }, `spec.enabled: want a bool, got string`},
		{"type: retention as bool", KindSchedule, func(o map[string]any) { spec(o)["snapshotRetention"] = true }, `want a string, got bool`},
		{"range: minute", KindSchedule, func(o map[string]any) { spec(o)["minute"] = "60" }, `"60" is not a number from 0 to 59`},
		{"range: day of week", KindSchedule, func(o map[string]any) { spec(o)["dayOfWeek"] = "8" }, `"8" is not a number from 0 to 7`},
		{"range: day of month", KindSchedule, func(o map[string]any) { spec(o)["dayOfMonth"] = "0" }, `"0" is not a number from 1 to 31`},
		{"pattern: retention", KindSchedule, func(o map[string]any) { spec(o)["backupRetention"] = "-1" }, `"-1" does not match`},
		{"pattern: name", KindApplication, func(o map[string]any) { meta(o)["name"] = "My_App" }, `"My_App" does not match`},
		{"base64: hookSource", KindExecHook, func(o map[string]any) { spec(o)["hookSource"] = "#!/bin/sh" }, `hookSource is not base64`},
		{"max items: matchingCriteria", KindExecHook, func(o map[string]any) {
			var l []any
			for range 11 {
				l = append(l, map[string]any{"type": "podName", "value": "x"})
			}
			spec(o)["matchingCriteria"] = l
		}, `want at most 10 items, got 11`},
		{"min items: includedNamespaces", KindApplication, func(o map[string]any) { spec(o)["includedNamespaces"] = []any{} }, `want at least 1 items, got 0`},
		{"apiVersion", KindAppVault, func(o map[string]any) { o["apiVersion"] = "protect.trident.netapp.io/v1beta1" }, `is not one of [protect.trident.netapp.io/v1]`},
		{"rule: providerConfig member", KindAppVault, func(o map[string]any) {
			spec(o)["providerConfig"] = map[string]any{"gcp": map[string]any{"bucketName": "b"}}
		}, `providerType GenericS3 takes providerConfig.s3 alone`},
		{"rule: provider credentials", KindAppVault, func(o map[string]any) {
			delete(spec(o)["providerCredentials"].(map[string]any), "secretAccessKey")
		}, `providerType GenericS3 needs providerCredentials.secretAccessKey`},
		{"rule: granularity fields", KindSchedule, func(o map[string]any) { delete(spec(o), "dayOfWeek") }, `granularity Weekly needs dayOfWeek`},
		{"rule: application namespace included", KindApplication, func(o map[string]any) { meta(o)["namespace"] = "elsewhere" }, `namespace elsewhere is not among includedNamespaces`},
		{"rule: hook type", KindExecHook, func(o map[string]any) { spec(o)["action"] = "Restore" }, `Pre/Restore is not one of the documented execution hook types`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := deepCopy(base[c.kind].Object).(map[string]any)
			c.mutate(obj)
			errs := validateManifest(obj)
			if !strings.Contains(strings.Join(errs, "\n"), c.want) {
				t.Errorf("errors %q do not contain %q", errs, c.want)
			}
		})
	}
}

func spec(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

func meta(o map[string]any) map[string]any { return o["metadata"].(map[string]any) }

func s3(o map[string]any) map[string]any {
	return spec(o)["providerConfig"].(map[string]any)["s3"].(map[string]any)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}
