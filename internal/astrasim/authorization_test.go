package astrasim

import (
	"testing"
)

// A member constrained to namespaces labelled team=payments manages the apps there and
// nothing else (research notes §4.14: constraints namespaces:kubernetesLabels='k=v'.*).
func TestConstrainedMember(t *testing.T) {
	e := newEnv(t, Options{Namespaces: []string{"payments", "shop"}})
	e.sim.SetNamespaceLabels("payments", map[string]string{"team": "payments"})
	cluster := e.managedCluster("prod")
	pay := e.post("/k8s/v2/apps", appBody("pay", cluster, "payments")).expect(201).str("id")
	shop := e.post("/k8s/v2/apps", appBody("shop", cluster, "shop")).expect(201).str("id")
	_, tok, err := e.sim.NewUserToken("team@example.com", RoleMember, "namespaces:kubernetesLabels='team=payments'.*")
	if err != nil {
		t.Fatal(err)
	}
	m := e.as(tok)
	rename := map[string]any{"type": "application/astra-app", "version": "2.1", "name": "renamed"}
	m.put("/k8s/v2/apps/"+pay, rename).expect(204)
	rename["name"] = "renamed-2"
	r := m.put("/k8s/v2/apps/"+shop, rename).problem(11)
	if r.str("requiredRole") != "member" || r.field("invalidFields", "roleConstraints") == "" {
		t.Errorf("refusal %s", r.raw)
	}
	m.get("/k8s/v2/apps/" + shop).problem(11)
	m.post("/k8s/v1/apps/"+shop+"/appSnaps", snapBody("s")).problem(11)
	m.del("/k8s/v2/apps/" + shop).problem(11)
	m.post("/k8s/v2/apps", appBody("more", cluster, "shop")).problem(11)
	m.post("/k8s/v2/apps", appBody("more", cluster, "payments")).expect(201)
	items := m.get("/k8s/v2/apps").expect(200).items()
	if len(items) != 2 || itemField(items, 0, "name") != "renamed" || itemField(items, 1, "name") != "more" {
		t.Errorf("the member lists %v", items)
	}
	if n := len(e.get("/k8s/v2/apps").items()); n != 3 {
		t.Errorf("the owner lists %d apps", n)
	}
	// Not an admin: users stay out of reach.
	if r := m.post("/core/v1/users", userBody("x@example.com", nil)).problem(11); r.str("requiredRole") != "admin" {
		t.Errorf("refusal %s", r.raw)
	}
	e.put("/k8s/v2/apps/"+shop, rename).expect(204) // the owner is not constrained
}

// Constraints by namespace ID: the object alone, or with ".*" its contents.
func TestConstraintByID(t *testing.T) {
	e := newEnv(t, Options{Namespaces: []string{"payments"}})
	cluster := e.managedCluster("prod")
	app := e.post("/k8s/v2/apps", appBody("pay", cluster, "payments")).expect(201).str("id")
	nsID := namespaceID(e.sim.st.Clusters[cluster], "payments")
	_, objOnly, _ := e.sim.NewUserToken("a@example.com", RoleViewer, "namespaces:id='"+nsID+"'")
	_, contents, _ := e.sim.NewUserToken("b@example.com", RoleViewer, "namespaces:id='"+nsID+"'.*")
	_, nothing, _ := e.sim.NewUserToken("c@example.com", RoleViewer, []string{}...)
	ns := "/topology/v1/managedClusters/" + cluster + "/namespaces/" + nsID
	e.as(objOnly).get(ns).expect(200)
	namespaces := e.as(objOnly).get("/topology/v1/managedClusters/" + cluster + "/namespaces").expect(200).items()
	if len(namespaces) != 1 || itemField(namespaces, 0, "name") != "payments" {
		t.Errorf("the constrained viewer lists namespaces %v", namespaces)
	}
	e.as(objOnly).get("/k8s/v2/apps/" + app).problem(11)
	e.as(contents).get("/k8s/v2/apps/" + app).expect(200)
	e.as(nothing).get("/k8s/v2/apps/" + app).problem(11) // [] grants nothing
	e.as(nothing).get(ns).problem(11)
	if n := len(e.as(nothing).get("/k8s/v2/apps").expect(200).items()); n != 0 {
		t.Errorf("[] lists %d apps", n)
	}
	if _, _, err := e.sim.NewUserToken("d@example.com", RoleViewer, "team=payments"); err == nil {
		t.Error("a malformed constraint was taken")
	}
}

// The most privileged binding wins, including an LDAP group's.
func TestGroupBindingGivesTheRole(t *testing.T) {
	e := center(t, Options{})
	e.connectLDAP()
	uid := e.post("/core/v1/users", userBody("alice@example.com", map[string]any{"authProvider": "ldap", "authID": "cn=Alice Admin," + DirectoryUserBase})).expect(201).str("id")
	e.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "viewer")).expect(201)
	tok, _ := e.sim.MintToken(uid, "t")
	e.as(tok).post("/core/v1/users", userBody("z@example.com", nil)).problem(11)
	gid := e.newGroup("CN=ops," + DirectoryGroupBase)
	e.post("/core/v1/roleBindings", e.bindingBody("groupID", gid, "admin")).expect(201)
	e.as(tok).post("/core/v1/users", userBody("z@example.com", nil)).expect(201)
}
