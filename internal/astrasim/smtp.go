package astrasim

// The SMTP setting astra.account.smtp is the one the documents' settings PUT example
// changes (desiredConfig credential, port, relayServer, isEnabled; setting_1.0/1.1). The
// simulator sends no mail: a change is applied at once, valid.
const smtpSettingName = "astra.account.smtp"

func smtpConfigSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false,
		"required": strs([]string{"isEnabled"}),
		"properties": map[string]any{
			"credential": map[string]any{"type": "string"}, "relayServer": map[string]any{"type": "string"},
			"port":      map[string]any{"type": "integer", "minimum": 1, "maximum": 65535},
			"isEnabled": map[string]any{"type": "string", "enum": strs([]string{"true", "false"})},
		},
	}
}

// configSchemaOf is a setting's configSchema.
func configSchemaOf(name string) map[string]any {
	if name == smtpSettingName {
		return smtpConfigSchema()
	}
	return ldapConfigSchema()
}

func (s *Sim) defaultSMTP() *ldapSetting {
	return &ldapSetting{Name: smtpSettingName, ID: s.seedID("setting/smtp"), Version: s.newest[resSetting],
		Current: map[string]any{"isEnabled": "false"}, State: "valid", Unready: []string{},
		Meta: meta{Labels: []label{}, Created: seedTime, Modified: seedTime, CreatedBy: nullUUID}}
}

func (s *Sim) putSMTP(q *request, l *ldapSetting, b *body, desired map[string]any) *reply {
	l.Current, l.Desired, l.Version = copyMap(desired), desired, b.version
	touch(&l.Meta, q)
	return s.updated(q, resSetting, l.Version, s.renderSetting(l))
}
