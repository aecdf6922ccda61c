package provider

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

// What the seeded estate (tpEstate) renders to, by cluster, written from the mapping's
// tables rather than from the renderer.

// tpManifest is an item of `manifests`, by key and source.
func tpManifest(key, sourceKind, sourceID string) knownvalue.Check {
	return knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "source_kind": knownvalue.StringExact(sourceKind), "source_id": knownvalue.StringExact(sourceID),
		"kind": knownvalue.StringExact(strings.Split(key, ".")[0]), "yaml": knownvalue.StringRegexp(regexp.MustCompile(`^# Rendered from Astra Control `)),
	})
}

// tpExpectedManifests is the cluster's rendering, in order: AppVaults by name, then each
// app (by namespace) with its Schedules and ExecHooks by name.
func tpExpectedManifests(e tpEstate) []knownvalue.Check {
	b, p, h := e.buckets, e.policies, e.hooks
	return []knownvalue.Check{
		tpManifest("AppVault.trident-protect.aws-east", "bucket", b["aws-east"]),
		tpManifest("AppVault.trident-protect.azure-blob", "bucket", b["azure-blob"]),
		tpManifest("AppVault.trident-protect.gcs-backups", "bucket", b["gcs-backups"]),
		tpManifest("AppVault.trident-protect.grid-backups", "bucket", b["grid-backups"]),
		tpManifest("AppVault.trident-protect.minio", "bucket", b["minio"]),
		tpManifest("AppVault.trident-protect.ontap-s3-prod", "bucket", b["ONTAP S3 (prod)"]),
		tpManifest("Application.default.shop-47362e", "app", e.shop),
		tpManifest("Schedule.default.shop-daily", "protection policy", p["shop/daily"]),
		tpManifest("Schedule.default.shop-hourly", "protection policy", p["shop/hourly"]),
		tpManifest("Schedule.default.shop-monthly", "protection policy", p["shop/monthly"]),
		tpManifest("Schedule.default.shop-weekly", "protection policy", p["shop/weekly"]),
		tpManifest("ExecHook.default.after-failover", "execution hook", h["after-failover"]),
		tpManifest("ExecHook.default.after-restore", "execution hook", h["after-restore"]),
		tpManifest("ExecHook.default.freeze-backup", "execution hook", h["freeze-backup"]),
		tpManifest("ExecHook.default.freeze-snapshot", "execution hook", h["freeze-snapshot"]),
		tpManifest("ExecHook.default.thaw-backup", "execution hook", h["thaw-backup"]),
		tpManifest("ExecHook.default.thaw-snapshot", "execution hook", h["thaw-snapshot"]),
		tpManifest("Application.kube-node-lease.blog-79a021", "app", e.blog),
		tpManifest("Schedule.kube-node-lease.blog-daily", "protection policy", p["blog/daily"]),
		tpManifest("Schedule.kube-node-lease.blog-hourly", "protection policy", p["blog/hourly"]),
		tpManifest("Schedule.kube-node-lease.blog-weekly", "protection policy", p["blog/weekly"]),
	}
}

// tpVault is an AppVault object of the cluster's rendering.
func tpVault(name, providerType string, config map[string]any, keys ...string) map[string]any {
	creds := map[string]any{}
	for _, k := range keys {
		creds[k] = map[string]any{"valueFromSecret": map[string]any{"name": name + "-credentials", "key": k}}
	}
	return tpObject("AppVault", name, "trident-protect", map[string]any{
		"providerType": providerType, "providerConfig": config, "providerCredentials": creds,
		"dataMoverPasswordSecretRef": "tp-repository-passwords",
	})
}

func tpObject(kind, name, namespace string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "protect.trident.netapp.io/v1", "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": namespace}, "spec": spec}
}

// tpSchedule is a Schedule object of the app shop; times holds the granularity's fields.
func tpSchedule(name, vault, granularity, snapshots, backups string, times map[string]any) map[string]any {
	spec := map[string]any{"applicationRef": tpShopApplication, "appVaultRef": vault, "granularity": granularity, "enabled": true,
		"backupReclaimPolicy": "Retain", "snapshotRetention": snapshots, "backupRetention": backups}
	for k, v := range times {
		spec[k] = v
	}
	return tpObject("Schedule", name, "default", spec)
}

// tpHook is an ExecHook object of the app shop.
func tpHook(name, stage, action, script string, enabled bool, extra map[string]any) map[string]any {
	spec := map[string]any{"applicationRef": tpShopApplication, "stage": stage, "action": action, "enabled": enabled,
		"hookSource": base64.StdEncoding.EncodeToString([]byte(tpScripts[script]))}
	for k, v := range extra {
		spec[k] = v
	}
	return tpObject("ExecHook", name, "default", spec)
}

// tpExpectedObjects are the cluster's objects, written from the mapping's tables.
func tpExpectedObjects() map[string]map[string]any {
	s3 := []string{"accessKeyID", "secretAccessKey"}
	s3Config := func(bucket, endpoint string, extra ...string) map[string]any {
		c := map[string]any{"bucketName": bucket, "endpoint": endpoint}
		for i := 0; i+1 < len(extra); i += 2 {
			c[extra[i]] = extra[i+1]
		}
		return map[string]any{"s3": c}
	}
	image := map[string]any{"type": "containerImage", "value": "^docker.io/bitnami/mysql:.*$"}
	return map[string]map[string]any{
		"AppVault.trident-protect.ontap-s3-prod": tpVault("ontap-s3-prod", "OntapS3", s3Config("astra-prod", "s3.ontap.example.com:8443"), s3...),
		"AppVault.trident-protect.grid-backups":  tpVault("grid-backups", "StorageGridS3", s3Config("tp-backups", "grid.example.com:10443"), s3...),
		// http: secure "false"; the URL's user information is left out.
		"AppVault.trident-protect.minio":    tpVault("minio", "GenericS3", s3Config("backups", "10.0.0.5:9000", "secure", "false"), s3...),
		"AppVault.trident-protect.aws-east": tpVault("aws-east", "AWS", s3Config("acme-astra-backups", "s3.us-east-1.amazonaws.com"), s3...),
		"AppVault.trident-protect.gcs-backups": tpVault("gcs-backups", "GCP",
			map[string]any{"gcp": map[string]any{"bucketName": "acme-gcs-backups", "projectID": "acme-prod"}}, "credentials"),
		"AppVault.trident-protect.azure-blob": tpVault("azure-blob", "Azure",
			map[string]any{"azure": map[string]any{"accountName": "acmestorage", "bucketName": "astra-backups", "endpoint": "core.windows.net"}}, "accountKey"),
		"Application.default.shop-47362e": tpObject("Application", tpShopApplication, "default", map[string]any{
			"includedNamespaces": []any{
				map[string]any{"namespace": "default", "labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": "shop"}}},
				map[string]any{"namespace": "default", "labelSelector": map[string]any{"matchExpressions": []any{
					map[string]any{"key": "tier", "operator": "In", "values": []any{"web", "db"}}}}},
				map[string]any{"namespace": "kube-public"},
			},
			"includedClusterScopedResources": []any{
				map[string]any{"groupVersionKind": map[string]any{"group": "rbac.authorization.k8s.io", "version": "v1", "kind": "ClusterRole"},
					"labelSelector": map[string]any{"matchLabels": map[string]any{"app": "shop"}}},
				map[string]any{"groupVersionKind": map[string]any{"group": "", "version": "v1", "kind": "PersistentVolume"}},
			},
		}),
		"Application.kube-node-lease.blog-79a021": tpObject("Application", "blog-79a021", "kube-node-lease", map[string]any{
			"includedNamespaces": []any{map[string]any{"namespace": "kube-node-lease"}},
		}),
		// The hourly policy names no bucket: the managed cluster's default bucket's AppVault.
		"Schedule.default.shop-hourly": tpSchedule("shop-hourly", "ontap-s3-prod", "Hourly", "24", "1", map[string]any{"minute": "15"}),
		"Schedule.default.shop-daily":  tpSchedule("shop-daily", "grid-backups", "Daily", "7", "14", map[string]any{"minute": "0", "hour": "2"}),
		// Day of week 7 is Sunday, "0".
		"Schedule.default.shop-weekly": tpSchedule("shop-weekly", "gcs-backups", "Weekly", "4", "8",
			map[string]any{"minute": "30", "hour": "3", "dayOfWeek": "0"}),
		"Schedule.default.shop-monthly": tpSchedule("shop-monthly", "azure-blob", "Monthly", "0", "12",
			map[string]any{"minute": "45", "hour": "4", "dayOfMonth": "31"}),
		"ExecHook.default.freeze-snapshot": tpHook("freeze-snapshot", "Pre", "Snapshot", "freeze.sh", true, map[string]any{
			"arguments":        []any{"--timeout", "30"},
			"matchingCriteria": []any{image, map[string]any{"type": "podLabel", "value": "app=shop"}},
		}),
		"ExecHook.default.thaw-snapshot": tpHook("thaw-snapshot", "Post", "Snapshot", "thaw.sh", true, map[string]any{"matchingCriteria": []any{image}}),
		"ExecHook.default.freeze-backup": tpHook("freeze-backup", "Pre", "Backup", "freeze.sh", true, map[string]any{"matchingCriteria": []any{
			map[string]any{"type": "containerName", "value": "mysql"}, map[string]any{"type": "namespaceName", "value": "default"}}}),
		"ExecHook.default.thaw-backup": tpHook("thaw-backup", "Post", "Backup", "thaw.sh", false, map[string]any{"matchingCriteria": []any{
			map[string]any{"type": "podName", "value": "^shop-db-[0-9]+$"}}}),
		"ExecHook.default.after-restore":  tpHook("after-restore", "Post", "Restore", "thaw.sh", true, nil),
		"ExecHook.default.after-failover": tpHook("after-failover", "Post", "Failover", "thaw.sh", true, nil),
	}
}

// tpExpectedSecrets: one per AppVault, with the keys of its provider, and the data mover
// password Secret, which stands for no bucket.
func tpExpectedSecrets(e tpEstate) []knownvalue.Check {
	vault := func(name, bucket, credential string, keys ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, len(keys))
		for i, k := range keys {
			checks[i] = knownvalue.StringExact(k)
		}
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name + "-credentials"), "namespace": knownvalue.StringExact("trident-protect"),
			"keys": knownvalue.ListExact(checks), "purpose": knownvalue.NotNull(),
			"bucket_id": knownvalue.StringExact(e.buckets[bucket]), "bucket_name": knownvalue.StringExact(bucket),
			"credential_id": knownvalue.StringExact(e.credentials[credential]), "credential_name": knownvalue.StringExact(credential),
		})
	}
	s3 := []string{"accessKeyID", "secretAccessKey"}
	return []knownvalue.Check{
		vault("aws-east", "aws-east", "tp-s3-keys", s3...),
		vault("azure-blob", "azure-blob", "tp-azure-sa", "accountKey"),
		vault("gcs-backups", "gcs-backups", "tp-gcp-sa", "credentials"),
		vault("grid-backups", "grid-backups", "tp-s3-keys", s3...),
		vault("minio", "minio", "tp-s3-keys", s3...),
		vault("ontap-s3-prod", "ONTAP S3 (prod)", "tp-s3-keys", s3...),
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name": knownvalue.StringExact("tp-repository-passwords"), "namespace": knownvalue.StringExact("trident-protect"),
			"keys":    knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("KOPIA_PASSWORD"), knownvalue.StringExact("RESTIC_PASSWORD")}),
			"purpose": knownvalue.NotNull(), "bucket_id": knownvalue.Null(), "bucket_name": knownvalue.Null(),
			"credential_id": knownvalue.Null(), "credential_name": knownvalue.Null(),
		}),
	}
}

// tpExpectedWarnings are the estate's differences, in the order the rendering finds them.
func tpExpectedWarnings(e tpEstate) []knownvalue.Check {
	warning := func(object, message string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"object":  knownvalue.StringExact(object),
			"message": knownvalue.StringRegexp(regexp.MustCompile(message)),
		})
	}
	policy := func(app, name string) string {
		return fmt.Sprintf("protection policy %q (%s)", name, e.policies[app+"/"+name])
	}
	return []knownvalue.Check{
		warning(fmt.Sprintf(`bucket "minio" (%s)`, e.buckets["minio"]), `^server URL carries user information, left out`),
		warning(policy("blog", "daily"), `^is disabled in Astra Control: rendered with spec.enabled false`),
		warning(policy("blog", "hourly"), `^names no bucket: its Schedule uses AppVault "ontap-s3-prod", of the default bucket "ONTAP S3 \(prod\)"`),
		warning(fmt.Sprintf(`app "shop" (%s)`, e.shop), `^namespace "default" has 2 label selectors`),
		warning(policy("shop", "hourly"), `^names no bucket: its Schedule uses AppVault "ontap-s3-prod"`),
		warning(policy("shop", "monthly"), `^day of month 31: `),
		warning(policy("shop", "weekly"), `^day of week 7 is rendered as "0"`),
		warning(fmt.Sprintf(`execution hook "after-failover" (%s)`, e.hooks["after-failover"]), `^a failover hook runs when an AppMirrorRelationship fails over`),
	}
}

// tpShopApplication is the name of shop's Application: its name and the hash of its scope
// (the seeded estate's; a change of the seed's scope changes it).
const tpShopApplication = "shop-47362e"
