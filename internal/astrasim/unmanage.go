package astrasim

// Unmanaging an app (DELETE /k8s/v2/apps/{id}) and what it takes along. The sources
// disagree (research §4.7): Astra Control Center's documentation (use/unmanage) says
// unmanaging deletes the app's backups and snapshots, the automation documentation
// (wf_unmanage_app) says it does not. The simulator models the reading that is safe for
// users: they are deleted, with the app's execution hooks, so a test never relies on
// backups outliving the app. NetApp's own cleanup script deletes them before unmanaging,
// which works against either behaviour.

// unmanageBlocked refuses to unmanage an app while a backup or snapshot of it is in
// progress: 409 problem 157 ("The application wasn't unmanaged because a disruptive backup
// is in progress", the catalogue's entry for exactly this, listed for app DELETE in the
// research notes) for a backup, 409 problem 148 ("... not possible because a snapshot is
// already in progress") for a snapshot. Both say "retry later", as 112 and 164 would, but
// name the cause.
func (s *Sim) unmanageBlocked(a *app) *apiProblem {
	if s.backupInProgress(a.ID) {
		return problem(157)
	}
	if s.snapshotInProgress(a.ID) {
		return problem(148)
	}
	return nil
}

// forgetAppData deletes the app's snapshots, backups and execution hooks.
func (s *Sim) forgetAppData(a *app) {
	for _, sn := range s.st.snapshotsOf(a.ID) {
		delete(s.st.Snapshots, sn.ID)
	}
	for _, b := range s.st.backupsOf(a.ID) {
		delete(s.st.Backups, b.ID)
	}
	for _, h := range s.st.hooksOf(a.ID) {
		delete(s.st.Hooks, h.ID)
	}
}
