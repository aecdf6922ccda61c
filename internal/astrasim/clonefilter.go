package astrasim

// A selective restore into a new app: the POST of a clone from a snapshot or a backup may
// carry restoreFilter as well as an in-place restore's PUT. The app 2.2 POST schema has the
// member (the 23.05 to 24.02 documents: "which resources are included or excluded from a
// selective restore operation"), and NetApp's client sends it there: astraSDK's cloneApp
// adds restoreFilter to the POST for actoolkit's "restore --filterSelection --filterSet".
// The filter is read as on the PUT (restorefilter.go) and matched against the source app's
// assets, in the source's namespaces (what the snapshot or backup holds, and what
// actoolkit checks a filter set against: the source app's appAssets); the new app records
// the selected assets in the namespaces they were restored to (Sim.Restored).
//
// A live clone (sourceAppID without a snapshot or a backup) with a filter is 400/9: the
// schema's prose speaks of restores only, so the simulator takes the conservative reading.

// cloneRestoreFilter checks a clone's restoreFilter and answers what the new app gets back:
// every asset of the source (mapped by ns) without a filter, nil and a problem when the
// filter is invalid or the clone is live.
func cloneRestoreFilter(b *body, src *app, ns []nsScope, fromRestorePoint bool) ([]string, *apiProblem) {
	assets := appAssets(src)
	dest := map[string]string{}
	for i, r := range src.NamespaceScope {
		if i < len(ns) {
			dest[r.Namespace] = ns[i].Namespace
		}
	}
	selected := assets
	if raw, ok := b.fields["restoreFilter"].(map[string]any); ok {
		if !fromRestorePoint {
			return nil, invalidFields(9, fieldReason{"restoreFilter", "a selective restore restores a snapshot or a backup: name snapshotID or backupID, or leave restoreFilter out of a live clone"})
		}
		criteria, filters, p := readRestoreFilter(raw)
		if p != nil {
			return nil, p
		}
		selected = filterAssets(assets, criteria, filters)
	}
	out := make([]string, 0, len(selected))
	for _, x := range selected {
		if to, ok := dest[x.Namespace]; ok {
			x.Namespace = to
		}
		out = append(out, x.String())
	}
	return out, nil
}
