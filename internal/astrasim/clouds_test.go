package astrasim

import (
	"encoding/base64"
	"testing"
)

func TestSeeds(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	want := map[string]string{seeds.PrivateCloudID: "private", seeds.GCP.CloudID: "GCP", seeds.Azure.CloudID: "Azure", seeds.AWS.CloudID: "AWS"}
	for id, cloudType := range want {
		r := e.get("/topology/v1/clouds/" + id).expect(200)
		if r.str("cloudType") != cloudType || r.str("state") != "running" {
			t.Errorf("cloud %s: %s", id, r.raw)
		}
	}
	for _, pc := range []PublicCloud{seeds.GCP, seeds.Azure, seeds.AWS} {
		list := e.get("/topology/v1/clouds/" + pc.CloudID + "/clusters").expect(200)
		if len(list.items()) != 2 || itemField(list.items(), 0, "managedState") != "unmanaged" || itemField(list.items(), 1, "managedState") != "ineligible" {
			t.Errorf("discovered clusters of %s: %s", pc.CloudID, list.raw)
		}
		for _, id := range []string{pc.ClusterID, pc.IneligibleClusterID} {
			scs := e.get("/topology/v1/clouds/" + pc.CloudID + "/clusters/" + id + "/storageClasses").expect(200)
			if len(scs.items()) != len(seeds.StorageClasses[id]) || itemField(scs.items(), 0, "isDefault") != "true" || itemField(scs.items(), 1, "isDefault") != "" {
				t.Errorf("storage classes of %s: %s", id, scs.raw)
			}
		}
		if e.get("/core/v1/credentials/"+pc.CredentialID).str("keyType") != "generic" {
			t.Error("a public cloud's credential is a generic service-account credential")
		}
	}
	if seeds.TridentVersion != "23.07.0" || e.get("/topology/v1/clusters/"+seeds.GCP.ClusterID).str("tridentVersion") != seeds.TridentVersion {
		t.Errorf("trident version %q", seeds.TridentVersion)
	}
	if e.get("/topology/v1/clouds/"+seeds.PrivateCloudID+"/clusters").items() == nil {
		// items is always an array, even empty
		t.Error("an empty list must still have items")
	}
	// Seeds are a function of the seed.
	again, _ := New(Options{})
	other, _ := New(Options{Seed: 7})
	if again.Seeds().GCP.ClusterID != seeds.GCP.ClusterID || other.Seeds().GCP.ClusterID == seeds.GCP.ClusterID {
		t.Error("seeded IDs must depend on Options.Seed only")
	}
}

func TestCloudLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	body := map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "lab", "cloudType": "private"}
	r := e.post("/topology/v1/clouds", body).expect(201)
	id := r.str("id")
	if r.header.Get("Location") != e.url("/topology/v1/clouds/"+id) {
		t.Errorf("Location %q", r.header.Get("Location"))
	}
	e.post("/topology/v1/clouds", body).problem(140)
	gcp := e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.0", "name": "gcp-2", "cloudType": "gcp", "credentialID": seeds.GCP.CredentialID}).expect(201)
	if gcp.str("cloudType") != "GCP" || gcp.str("version") != "1.0" {
		t.Errorf("the service answers cloudType GCP and the version sent: %s", gcp.raw)
	}
	e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "aws-2", "cloudType": "aws", "credentialID": "0b146cda-7fc1-4f32-804c-8130a38a7e1c"}).problem(9)
	e.put("/topology/v1/clouds/"+id, map[string]any{"type": "application/astra-cloud", "version": "1.1", "cloudType": "aws"}).problem(10)
	e.put("/topology/v1/clouds/"+id, map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "GCP"}).problem(140)
	e.put("/topology/v1/clouds/"+id, map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "lab-2"}).expect(204)
	if e.get("/topology/v1/clouds/"+id).str("name") != "lab-2" {
		t.Error("rename did not stick")
	}
	e.del("/topology/v1/clouds/" + id).expect(204)
	e.get("/topology/v1/clouds/" + id).problem(2)
	e.del("/topology/v1/clouds/" + id).problem(1)
	e.put("/topology/v1/clouds/"+id, map[string]any{"type": "application/astra-cloud", "version": "1.1"}).problem(1)
}

func TestDeleteCloudWithClusters(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	e.manage(seeds.GCP.ClusterID).expect(201)
	e.del("/topology/v1/clouds/" + seeds.GCP.CloudID).problem(141)
	e.del("/topology/v1/managedClusters/" + seeds.GCP.ClusterID).expect(204)
	e.del("/topology/v1/clouds/" + seeds.GCP.CloudID).expect(204)
	// Deleting a cloud deletes its unmanaged clusters and their storage classes.
	e.get("/topology/v1/clusters/" + seeds.GCP.ClusterID).problem(2)
	e.get("/topology/v1/clusters/" + seeds.GCP.IneligibleClusterID).problem(2)
	if len(e.sim.st.storageClassesOf(seeds.GCP.ClusterID)) != 0 {
		t.Error("storage classes outlived their cloud")
	}
	if n := len(e.get("/topology/v1/clusters").items()); n != 4 {
		t.Errorf("%d clusters left, want 4", n)
	}
}

// TestNewPublicCloudDiscovers: a public cloud added with a service-account credential
// discovers <kind>-prod (unmanaged, running, with storage classes); with a credential of
// another kind it discovers nothing; deleting the cloud removes what it discovered.
func TestNewPublicCloudDiscovers(t *testing.T) {
	e := newEnv(t, Options{})
	sa := e.post("/core/v1/credentials", bucketCredentialBody("generic", "service-account", "Azure",
		map[string]any{"base64": base64.StdEncoding.EncodeToString([]byte(`{"clientId":"c"}`))})).expect(201).str("id")
	s3 := e.post("/core/v1/credentials", bucketCredentialBody("s3", "s3", "s3",
		map[string]any{"accessKey": "QUtJQQ==", "accessSecret": "c2VjcmV0"})).expect(201).str("id")
	clustersOf := func(cloudID string) []string {
		var names []string
		for _, c := range e.sim.st.Clusters {
			if c.CloudID == cloudID {
				names = append(names, c.Name+"/"+c.ManagedState+"/"+c.State)
			}
		}
		return names
	}
	cloudBody := func(name, credID string) map[string]any {
		return map[string]any{"type": "application/astra-cloud", "version": "1.0", "name": name, "cloudType": "azure", "credentialID": credID}
	}
	withSA := e.post("/topology/v1/clouds", cloudBody("azure-2", sa)).expect(201).str("id")
	if got := clustersOf(withSA); len(got) != 1 || got[0] != "aks-prod/unmanaged/running" {
		t.Errorf("the new Azure cloud discovered %v, want [aks-prod/unmanaged/running]", got)
	}
	for id, c := range e.sim.st.Clusters {
		if c.CloudID == withSA && len(e.sim.st.storageClassesOf(id)) == 0 {
			t.Error("the discovered cluster has no storage classes")
		}
	}
	if got := clustersOf(e.post("/topology/v1/clouds", cloudBody("azure-3", s3)).expect(201).str("id")); len(got) != 0 {
		t.Errorf("a cloud with an s3 credential discovered %v", got)
	}
	e.del("/topology/v1/clouds/" + withSA).expect(204)
	if got := clustersOf(withSA); len(got) != 0 {
		t.Errorf("after deleting the cloud: %v", got)
	}
}
