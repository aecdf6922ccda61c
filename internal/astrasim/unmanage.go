package astrasim

// Unmanaging an app (DELETE /k8s/v2/apps/{id}) and what it takes along. The sources
// disagree (research §4.7), so the simulator has both readings (Options.UnmanageDeletesBackups):
//   - Default, NetApp's REST workflow "Unmanage an app" (NetAppDocs/astra-automation,
//     workflows_infra/wf_unmanage_app): the app's backups and snapshots are not removed.
//     The provider speaks REST, so this is what it is tested against. The backups stay in
//     their bucket, listed and deletable under /topology/v1/appBackups, and keep the bucket
//     in use (409/83), as NetApp's toolkit docs say ("unmanage bucket": destroying its
//     backups first is required). The snapshots stay on the cluster as Kubernetes objects
//     no Astra path reaches any more: the simulator forgets them.
//   - Astra Control Center's documentation (NetAppDocs/astra-control-center, use/unmanage):
//     the app's backups and snapshots are deleted with it. The automation docs' "delete a
//     failed app" workflow deletes the failed backups (Force-Delete) before unmanaging, so
//     under this reading an app holding a failed backup refuses to go: 409 problem 142
//     ("Backup or snapshot not deleted") naming it.
// Either way the app's execution hooks go (they are the app's settings, not its data), and
// NetApp's cleanup scripts (delete every backup and snapshot, loop until gone, then
// unmanage) work against both.

// unmanageBlocked refuses to unmanage an app while a backup or snapshot of it is in
// progress: 409 problem 157 ("The application wasn't unmanaged because a disruptive backup
// is in progress", the catalogue's entry for exactly this, listed for app DELETE in the
// research notes) for a backup, 409 problem 148 ("... not possible because a snapshot is
// already in progress") for a snapshot. Both say "retry later", as 112 and 164 would, but
// name the cause. Under Astra Control Center's reading a failed backup refuses it, 142.
func (s *Sim) unmanageBlocked(a *app) *apiProblem {
	if s.backupInProgress(a.ID) {
		return problem(157)
	}
	if s.snapshotInProgress(a.ID) {
		return problem(148)
	}
	if !s.opts.UnmanageDeletesBackups {
		return nil
	}
	for _, b := range s.st.backupsOf(a.ID) {
		if b.State == "failed" {
			p := problem(142)
			p.Detail = "The app's backup " + b.Name + " (" + b.ID + ") failed and is not deleted with the app: " +
				"delete it with the header Force-Delete: true, then unmanage the app."
			return p
		}
	}
	return nil
}

// forgetAppData deletes the app's execution hooks and snapshots, and its backups when
// unmanaging deletes them (Options.UnmanageDeletesBackups).
func (s *Sim) forgetAppData(a *app) {
	for _, sn := range s.st.snapshotsOf(a.ID) {
		delete(s.st.Snapshots, sn.ID)
	}
	if s.opts.UnmanageDeletesBackups {
		for _, b := range s.st.backupsOf(a.ID) {
			delete(s.st.Backups, b.ID)
		}
	}
	for _, h := range s.st.hooksOf(a.ID) {
		delete(s.st.Hooks, h.ID)
	}
}
