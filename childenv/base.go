package childenv

// identityNames and localeNames are passed from the server's environment
// when set: who the user is and which language and encoding programs
// speak. They name no program and load no code, and without them real
// tools misbehave (git asks who the author is, tools print mojibake).
var (
	identityNames = []string{"USER", "LOGNAME"}
	localeNames   = []string{"LANG", "LC_ALL", "LC_CTYPE"}
)

// base is the environment every child gets besides PATH and the
// allowlist: HOME (cfg.Home, so that git finds the user's identity in
// ~/.gitconfig and go its cache under ~/.cache), the user's identity and
// locale. HOME is the operator's choice, never a request's (Steering
// refuses it per call).
func base(cfg Config, parent func(string) (string, bool)) map[string]string {
	vals := map[string]string{}
	if cfg.Home != "" {
		vals["HOME"] = cfg.Home
	}
	for _, names := range [][]string{identityNames, localeNames, platformNames} {
		for _, name := range names {
			if v, ok := parent(name); ok && v != "" {
				vals[name] = v
			}
		}
	}
	return vals
}
