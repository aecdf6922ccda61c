package tridentprotect

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
)

// The shape of each custom resource the renderer emits, as Trident protect's documentation
// gives it (NetAppDocs/trident at DocsCommit, trident-protect/ pages; the page each table
// comes from is named above it). A field the docs do not define, a required one missing or
// a value outside a documented enum or range fails validateManifest.
//
// Where the docs are silent or inconsistent, the choice made is said next to the field.

// field is the documented shape of one field.
type field struct {
	typ      string // string, bool, number, object, list, map
	required bool
	enum     []string
	pattern  *regexp.Regexp
	check    func(v any) error
	fields   map[string]field // object members
	elem     *field           // list and map elements
	minItems int
	maxItems int
}

// kindSchema is a kind's spec and the rules the docs state across its fields.
type kindSchema struct {
	spec  field
	rules []func(metadata, spec map[string]any) error
}

var (
	rfc1123           = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	count             = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	str               = field{typ: "string"}
	reqStr            = field{typ: "string", required: true}
	boolean           = field{typ: "bool"}
	trueOrFalseString = field{typ: "string", enum: []string{"true", "false"}}
)

func numberIn(lo, hi int) field {
	return field{typ: "string", check: func(v any) error {
		s := v.(string)
		n, err := strconv.Atoi(s)
		if !count.MatchString(s) || err != nil || n < lo || n > hi {
			return fmt.Errorf("%q is not a number from %d to %d given as a string", s, lo, hi)
		}
		return nil
	}}
}

func listOf(elem field) field { return field{typ: "list", elem: &elem} }

func object(fields map[string]field) field { return field{typ: "object", fields: fields} }

// labelSelectorField: the Application page calls it a label selector and shows matchLabels;
// the field is Kubernetes' LabelSelector (meta/v1), whose other member is matchExpressions.
var labelSelectorField = object(map[string]field{
	"matchLabels": {typ: "map", elem: &str},
	"matchExpressions": listOf(object(map[string]field{
		"key":      reqStr,
		"operator": {typ: "string", required: true, enum: []string{"In", "NotIn", "Exists", "DoesNotExist"}},
		"values":   listOf(str),
	})),
})

// valueFromSecret is how providerCredentials name a Secret's key
// (trident-protect-appvault-custom-resources: "AppVault CR examples").
var valueFromSecret = object(map[string]field{
	"valueFromSecret": {typ: "object", required: true, fields: map[string]field{"key": reqStr, "name": reqStr}},
})

// s3ProviderTypes take providerConfig.s3; Azure and GCP their own member (the AppVault
// page's table of providerType and providerConfig pairs, and its examples).
var providerConfigKey = map[string]string{
	"AWS": "s3", "GenericS3": "s3", "OntapS3": "s3", "StorageGridS3": "s3", "Azure": "azure", "GCP": "gcp",
}

// providerSecretKeys are the Secret keys each provider's credentials take
// ("AppVault key generation examples for cloud providers"); sessionToken is AWS's optional one.
var providerSecretKeys = map[string][]string{
	"AWS": {"accessKeyID", "secretAccessKey"}, "GenericS3": {"accessKeyID", "secretAccessKey"},
	"OntapS3": {"accessKeyID", "secretAccessKey"}, "StorageGridS3": {"accessKeyID", "secretAccessKey"},
	"Azure": {"accountKey"}, "GCP": {"credentials"},
}

var docSchemas = map[string]kindSchema{
	// trident-protect-appvault-custom-resources.adoc: examples per provider, the
	// providerConfig.s3 options table, data mover password secret, EKS Pod Identity.
	KindAppVault: {
		spec: object(map[string]field{
			"providerType": {typ: "string", required: true, enum: []string{"AWS", "Azure", "GCP", "GenericS3", "OntapS3", "StorageGridS3"}},
			"providerConfig": {typ: "object", required: true, fields: map[string]field{
				"s3": object(map[string]field{
					"bucketName":         reqStr,
					"endpoint":           str,
					"proxyURL":           str,
					"skipCertValidation": trueOrFalseString,
					"secure":             trueOrFalseString,
					"rootCA":             str,
					"useIAM":             boolean,
				}),
				"azure": object(map[string]field{"accountName": reqStr, "bucketName": reqStr, "endpoint": str}),
				"gcp":   object(map[string]field{"bucketName": reqStr, "projectID": str}),
			}},
			"providerCredentials": object(map[string]field{
				"accessKeyID": valueFromSecret, "secretAccessKey": valueFromSecret, "sessionToken": valueFromSecret,
				"accountKey": valueFromSecret, "credentials": valueFromSecret,
			}),
			"dataMoverPasswordSecretRef": str,
		}),
		rules: []func(metadata, spec map[string]any) error{
			func(_, spec map[string]any) error {
				want := providerConfigKey[spec["providerType"].(string)]
				config := spec["providerConfig"].(map[string]any)
				if len(config) != 1 || config[want] == nil {
					return fmt.Errorf("providerType %v takes providerConfig.%s alone, got %v", spec["providerType"], want, keys(config))
				}
				return nil
			},
			func(_, spec map[string]any) error {
				if s3, ok := spec["providerConfig"].(map[string]any)["s3"].(map[string]any); ok && s3["useIAM"] == true {
					return nil
				}
				creds, _ := spec["providerCredentials"].(map[string]any)
				for _, k := range providerSecretKeys[spec["providerType"].(string)] {
					if creds[k] == nil {
						return fmt.Errorf("providerType %v needs providerCredentials.%s", spec["providerType"], k)
					}
				}
				return nil
			},
		},
	},
	// trident-protect-manage-applications.adoc ("Add an application using a CR").
	KindApplication: {
		spec: object(map[string]field{
			"includedNamespaces": {typ: "list", required: true, minItems: 1, elem: &field{typ: "object", fields: map[string]field{
				"namespace":     {typ: "string", required: true, pattern: rfc1123},
				"labelSelector": labelSelectorField,
			}}},
			"includedClusterScopedResources": listOf(object(map[string]field{
				"groupVersionKind": {typ: "object", required: true, fields: map[string]field{"group": str, "version": reqStr, "kind": reqStr}},
				"labelSelector":    labelSelectorField,
			})),
			"resourceFilter": object(map[string]field{
				"resourceSelectionCriteria": {typ: "string", enum: []string{"Include", "Exclude"}},
				"resourceMatchers": listOf(object(map[string]field{
					"group": str, "kind": str, "version": str,
					"names": listOf(str), "namespaces": listOf(str), "labelSelectors": listOf(str),
				})),
			}),
		}),
		rules: []func(metadata, spec map[string]any) error{
			// "The application namespace must be part of this list."
			func(metadata, spec map[string]any) error {
				for _, e := range spec["includedNamespaces"].([]any) {
					if e.(map[string]any)["namespace"] == metadata["namespace"] {
						return nil
					}
				}
				return fmt.Errorf("the Application's namespace %v is not among includedNamespaces", metadata["namespace"])
			},
		},
	},
	// trident-protect-protect-apps.adoc ("Create a data protection schedule") and, for
	// enabled and recurrenceRule, trident-protect-use-snapmirror-replication.adoc.
	KindSchedule: {
		spec: object(map[string]field{
			"applicationRef":        reqStr,
			"appVaultRef":           reqStr,
			"backupRetention":       {typ: "string", required: true, pattern: count},
			"snapshotRetention":     {typ: "string", required: true, pattern: count},
			"granularity":           {typ: "string", required: true, enum: []string{"Hourly", "Daily", "Weekly", "Monthly", "Custom"}},
			"minute":                numberIn(0, 59),
			"hour":                  numberIn(0, 23),
			"dayOfWeek":             numberIn(0, 7),
			"dayOfMonth":            numberIn(1, 31),
			"recurrenceRule":        str,
			"enabled":               boolean,
			"dataMover":             {typ: "string", enum: []string{"Restic", "Kopia"}},
			"backupReclaimPolicy":   {typ: "string", enum: []string{"Retain", "Delete"}},
			"snapshotReclaimPolicy": {typ: "string", enum: []string{"Retain", "Delete"}},
			"runImmediately":        boolean,
		}),
		rules: []func(metadata, spec map[string]any) error{
			func(_, spec map[string]any) error {
				needs := map[string][]string{
					"Hourly": {"minute"}, "Daily": {"minute", "hour"}, "Weekly": {"minute", "hour", "dayOfWeek"},
					"Monthly": {"minute", "hour", "dayOfMonth"}, "Custom": {"recurrenceRule"},
				}
				for _, f := range needs[spec["granularity"].(string)] {
					if spec[f] == nil {
						return fmt.Errorf("granularity %v needs %s", spec["granularity"], f)
					}
				}
				return nil
			},
		},
	},
	// trident-protect-use-execution-hooks.adoc ("Create an execution hook", "Types of
	// execution hooks"). matchingCriteria types: the page lists them capitalized
	// (ContainerImage, ...) but its YAML example, like Astra Control, spells them
	// containerImage, ...; the example is what the controller's users apply.
	KindExecHook: {
		spec: object(map[string]field{
			"applicationRef": reqStr,
			"stage":          {typ: "string", required: true, enum: []string{"Pre", "Post"}},
			"action":         {typ: "string", required: true, enum: []string{"Snapshot", "Backup", "Restore", "Failover"}},
			"enabled":        boolean,
			"hookSource": {typ: "string", required: true, check: func(v any) error {
				if _, err := base64.StdEncoding.DecodeString(v.(string)); err != nil {
					return fmt.Errorf("hookSource is not base64: %w", err)
				}
				return nil
			}},
			"timeout":   {typ: "number"},
			"arguments": listOf(str),
			"matchingCriteria": {typ: "list", maxItems: 10, elem: &field{typ: "object", fields: map[string]field{
				"type":  {typ: "string", enum: []string{"containerImage", "containerName", "podName", "podLabel", "namespaceName"}},
				"value": str,
			}}},
		}),
		rules: []func(metadata, spec map[string]any) error{
			func(_, spec map[string]any) error {
				documented := map[string]bool{"Pre/Snapshot": true, "Post/Snapshot": true, "Pre/Backup": true, "Post/Backup": true, "Post/Restore": true, "Post/Failover": true}
				if k := fmt.Sprint(spec["stage"], "/", spec["action"]); !documented[k] {
					return fmt.Errorf("%s is not one of the documented execution hook types", k)
				}
				return nil
			},
		},
	},
}

// metadataSchema: what the renderer may set in metadata (Kubernetes ObjectMeta, of which
// the docs' examples use name, namespace and annotations).
var metadataSchema = field{typ: "object", required: true, fields: map[string]field{
	"name":        {typ: "string", required: true, pattern: rfc1123},
	"namespace":   {typ: "string", required: true, pattern: rfc1123},
	"labels":      {typ: "map", elem: &str},
	"annotations": {typ: "map", elem: &str},
}}

// validateManifest returns every way obj departs from the documented shape of its kind.
func validateManifest(obj map[string]any) []string {
	var errs []string
	kind, _ := obj["kind"].(string)
	schema, known := docSchemas[kind]
	if !known {
		return []string{fmt.Sprintf("kind %q is not one the docs define here", kind)}
	}
	top := field{typ: "object", fields: map[string]field{
		"apiVersion": {typ: "string", required: true, enum: []string{APIVersion}},
		"kind":       reqStr,
		"metadata":   metadataSchema,
		"spec":       withRequired(schema.spec),
	}}
	validateField("", obj, top, &errs)
	if len(errs) > 0 {
		return errs // rules assume the shape
	}
	for _, rule := range schema.rules {
		if err := rule(obj["metadata"].(map[string]any), obj["spec"].(map[string]any)); err != nil {
			errs = append(errs, "spec: "+err.Error())
		}
	}
	return errs
}

func withRequired(f field) field {
	f.required = true
	return f
}

func validateField(path string, v any, f field, errs *[]string) {
	before := len(*errs)
	fail := func(format string, args ...any) {
		*errs = append(*errs, fmt.Sprintf("%s: %s", display(path), fmt.Sprintf(format, args...)))
	}
	switch f.typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			fail("want a string, got %T", v)
			return
		}
		if len(f.enum) > 0 && !contains(f.enum, s) {
			fail("%q is not one of %v", s, f.enum)
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			fail("%q does not match %s", s, f.pattern)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			fail("want a bool, got %T", v)
			return
		}
	case "number":
		switch v.(type) {
		case int, int64, float64:
		default:
			fail("want a number, got %T", v)
			return
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			fail("want an object, got %T", v)
			return
		}
		for name, sub := range f.fields {
			if _, present := m[name]; !present && sub.required {
				fail("required field %q is missing", name)
			}
		}
		for name, val := range m {
			sub, defined := f.fields[name]
			if !defined {
				fail("field %q is not defined by the docs", name)
				continue
			}
			validateField(join(path, name), val, sub, errs)
		}
	case "list":
		l, ok := v.([]any)
		if !ok {
			fail("want a list, got %T", v)
			return
		}
		if len(l) < f.minItems {
			fail("want at least %d items, got %d", f.minItems, len(l))
		}
		if f.maxItems > 0 && len(l) > f.maxItems {
			fail("want at most %d items, got %d", f.maxItems, len(l))
		}
		for i, e := range l {
			validateField(fmt.Sprintf("%s[%d]", path, i), e, *f.elem, errs)
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			fail("want a map, got %T", v)
			return
		}
		for k, e := range m {
			validateField(join(path, k), e, *f.elem, errs)
		}
	default:
		fail("schema error: type %q", f.typ)
	}
	if f.check != nil && len(*errs) == before {
		if err := f.check(v); err != nil {
			fail("%v", err)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func display(path string) string {
	if path == "" {
		return "(manifest)"
	}
	return path
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
