package argvrules

import (
	"strings"
	"sync"
)

// Redaction grammars. The families with a getopt_long table read their
// credentials with it (Family.Secrets: curl and wget name theirs next to
// their risks, curl.go and wget.go); the other families and the programs
// without a recognizer have a sparse table here: the options that take
// credentials, in the spellings the program accepts, and the operands
// that are credentials after which words. Sources are the programs'
// manuals at the versions named.

// getoptFamilySecrets are the readers of the families whose whole option
// grammar is a getopt table: their known options are their own (sort's
// --key=2 is a sort key, not a secret).
var (
	sortSecrets  = getoptSecrets("GNU sort 9.x", sortTable, permute, nil)
	rgSecrets    = getoptSecrets("ripgrep", rgTable, permute, nil)
	splitSecrets = getoptSecrets("GNU split 9.x", splitProgram.table, permute, nil)
	sdiffSecrets = getoptSecrets("GNU sdiff 3.8", sdiffProgram.table, permute, nil)
	diff3Secrets = getoptSecrets("GNU diff3 3.8", diff3Program.table, permute, nil)
	curlSecrets  = getoptSecrets("curl 7.88", curlProgram.table, permute, curlCredentials)
	wgetSecrets  = getoptSecrets("GNU Wget 1.21", wgetProgram.table, permute, wgetCredentials)
)

// gitTable: git 2.53 git(1) and git-config(1). The values of "git config
// NAME VALUE" (and "git config set NAME VALUE", 2.46+) are credentials
// when NAME is (user.password, a token in credential.*); URLs with
// userinfo and -c NAME=VALUE are the caller's generic rules.
var gitTable = &sparseTable{
	grammar:   "git 2.53 git(1), git-config(1)",
	takes:     "Ccf",
	takesLong: set("git-dir", "work-tree", "namespace", "config-env", "file", "blob", "type", "default", "comment", "value"),
	operands:  settingValue([]string{"config", "set"}, []string{"config", "add"}, []string{"config"}),
}

// npmTable: npm 10 config(7) and nopt: --otp, --_auth, --_authToken and
// --_password (and unique abbreviations, which nopt expands), and "npm
// config set KEY VALUE" / "npm set KEY VALUE" with a secret-like KEY
// (//registry.npmjs.org/:_authToken). pnpm 9 and yarn 4 "config set" the
// same way (npmAuthToken).
var (
	npmTable = &sparseTable{
		grammar:  "npm 10 nopt options, npm-config(1)",
		long:     secretLongs(SecretWhole, "otp", "_auth", "_authToken", "_password", "password"),
		abbrev:   2,
		operands: settingValue([]string{"config", "set"}, []string{"set"}),
	}
	pnpmTable = &sparseTable{
		grammar:  "pnpm 9 pnpm config(1)",
		long:     secretLongs(SecretWhole, "otp"),
		operands: settingValue([]string{"config", "set"}, []string{"set"}),
	}
	yarnTable = &sparseTable{
		grammar:  "yarn 1.x and 4 yarn config set",
		long:     secretLongs(SecretWhole, "otp"),
		operands: settingValue([]string{"config", "set"}),
	}
)

// cargoTable: cargo 1.8x "cargo login TOKEN" and --token TOKEN (login,
// publish, owner, yank).
var cargoTable = &sparseTable{
	grammar:  "cargo 1.8x cargo-login(1), cargo-publish(1)",
	long:     secretLongs(SecretWhole, "token"),
	operands: operandAfter("login"),
}

// zipTable: Info-ZIP zip 3.0 -P/--password PASSWORD; unzip 6.0 and
// zipcloak -P PASSWORD.
var (
	zipTable = &sparseTable{
		grammar: "Info-ZIP zip 3.0 zip(1)",
		short:   secretLetters(SecretWhole, "P"),
		long:    secretLongs(SecretWhole, "password"),
		takes:   "bntZ",
	}
	unzipTable = &sparseTable{grammar: "Info-ZIP unzip 6.0 unzip(1)", short: secretLetters(SecretWhole, "P"), takes: "dx"}
)

// dockerTable: docker CLI 27 and podman 5 (cobra/pflag): "login -p PW",
// "--password PW", "--password=PW", "-pPW"; -u and --password-stdin name
// none. Elsewhere -p is a port.
var dockerTable = &sparseTable{
	grammar:   "docker CLI 27 / podman 5 login(1)",
	takes:     "cHl",
	takesLong: set("config", "context", "host", "log-level", "tlscacert", "tlscert", "tlskey"),
	commands: map[string]*sparseTable{
		"login": {short: secretLetters(SecretWhole, "p"), long: secretLongs(SecretWhole, "password"), takes: "u", takesLong: set("username", "authfile")},
	},
}

// kubectlTable: kubectl 1.3x global --token and --password; "create
// secret generic --from-literal=KEY=VALUE" (every value is a secret),
// "create secret docker-registry --docker-password", "config
// set-credentials --token --password". Key and certificate files are
// paths.
var kubectlTable = &sparseTable{
	grammar:   "kubectl 1.3x kubectl(1)",
	long:      secretLongs(SecretWhole, "token", "password"),
	takes:     "nsocl",
	takesLong: set("namespace", "context", "cluster", "user", "username", "server", "kubeconfig", "client-key", "client-certificate", "certificate-authority", "as"),
	commands: map[string]*sparseTable{
		"create secret generic":         {long: secretLongs(SecretAfterEquals, "from-literal")},
		"create secret docker-registry": {long: secretLongs(SecretWhole, "docker-password")},
		"config set-credentials":        {long: secretLongs(SecretWhole, "token", "password")},
	},
}

// redactionTables are the programs without a recognizer whose command
// lines carry credentials, by basename.
var redactionTables = sync.OnceValue(func() map[string]secretReader {
	m := map[string]secretReader{}
	add := func(t *sparseTable, names ...string) {
		for _, n := range names {
			m[n] = t.read
		}
	}
	// MySQL 8 / MariaDB 11 client programs (my_getopt): -pPASSWORD
	// attached only, --password[=PASSWORD] and its unique prefixes
	// (--pass=); a bare "-p pw" is read as a misplaced password too.
	mysql := &sparseTable{grammar: "MySQL 8 / MariaDB 11 client options (my_getopt)",
		attached: secretLetters(SecretWhole, "p"), bareNext: "p", long: secretLongs(SecretWhole, "password"), abbrev: 3, takes: "DehPSu"}
	add(mysql, "mysql", "mysqldump", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlbinlog", "mysqlslap", "mysqlpump",
		"mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-check", "mariadb-show")
	// mysqladmin password NEWPASSWORD sets a new password.
	mysqladmin := *mysql
	mysqladmin.operands = operandAfter("password")
	add(&mysqladmin, "mysqladmin")
	// sshpass 1.10: -p PASSWORD; -f FILE, -d FD, -e VAR name where it is.
	add(&sparseTable{grammar: "sshpass 1.10 sshpass(1)", short: secretLetters(SecretWhole, "p"), takes: "fd"}, "sshpass")
	// redis-cli 7: -a PASSWORD, --pass PASSWORD; -u URI is a URL.
	add(&sparseTable{grammar: "redis-cli 7", short: secretLetters(SecretWhole, "a"), long: secretLongs(SecretWhole, "pass"), takes: "hpnsu",
		takesLong: set("user", "tls-cert", "tls-key", "cacert")}, "redis-cli", "valkey-cli")
	// MongoDB shell and tools 2.x/100.x: -p/--password PASSWORD; the URI
	// is a URL.
	add(&sparseTable{grammar: "mongosh 2 / MongoDB database tools 100", short: secretLetters(SecretWhole, "p"), long: secretLongs(SecretWhole, "password"), takes: "uh"},
		"mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop")
	// Samba 4 smbclient and rpcclient (popt): -U USER%PASSWORD,
	// --user=USER%PASSWORD, --password=PASSWORD.
	add(&sparseTable{grammar: "Samba 4 smbclient(1)", short: secretLetters(SecretAfterPercent, "U"),
		long: map[string]SecretForm{"user": SecretAfterPercent, "password": SecretWhole}, takes: "IRWsOTDcpLdAnm"}, "smbclient", "rpcclient", "smbcacls", "smbget")
	// OpenLDAP 2.6 clients: -w PASSWORD (-W prompts, -y FILE).
	add(&sparseTable{grammar: "OpenLDAP 2.6 ldapsearch(1)", short: secretLetters(SecretWhole, "w"), takes: "abCdDeEfhHloOpPRsSTUXyY"},
		"ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn", "ldapexop")
	add(unzipTable, "unzip", "zipcloak")
	// 7-Zip 23 switches: -pPASSWORD attached; RAR 6 / unrar: -pPASSWORD
	// (-p- for none).
	switches := &sparseTable{grammar: "7-Zip 23 / RAR 6 switches", attached: secretLetters(SecretWhole, "p"), switches: true}
	add(switches, "7z", "7za", "7zr", "7zz", "unrar", "rar")
	// OpenSSL 3 (apps/lib/opt.c: one dash, "-opt value" or "-opt=value"):
	// -pass, -passin, -passout, -password take a pass phrase argument
	// (openssl-passphrase-options(1)); enc -k PASSWORD and -K HEXKEY are
	// the key itself. Key and certificate options name files.
	add(&sparseTable{grammar: "OpenSSL 3 openssl(1), openssl-passphrase-options(1)", oneDash: true,
		long:      map[string]SecretForm{"pass": SecretPassArg, "passin": SecretPassArg, "passout": SecretPassArg, "password": SecretPassArg, "k": SecretWhole, "K": SecretWhole},
		takesLong: set("key", "keyform", "inkey", "signkey", "CAkey", "in", "out", "keyout", "newkey", "kfile", "cert", "certfile", "config", "CAfile", "CApath", "iv", "md", "subj")}, "openssl")
	// JDK keytool: -storepass, -keypass, -srcstorepass, -deststorepass,
	// -srckeypass, -destkeypass, -new (one dash; :env and :file forms
	// name where the password is).
	add(&sparseTable{grammar: "JDK 21 keytool", oneDash: true,
		long:      secretLongs(SecretWhole, "storepass", "keypass", "srcstorepass", "deststorepass", "srckeypass", "destkeypass", "new"),
		takesLong: set("keystore", "alias", "file", "srckeystore", "destkeystore", "storetype", "dname", "keyalg", "keysize", "validity")}, "keytool")
	// sqlcmd (ODBC and go-sqlcmd): -P PASSWORD.
	add(&sparseTable{grammar: "sqlcmd(1)", short: secretLetters(SecretWhole, "P"), takes: "SUdQqiIoHlteaAWkKhsbyYcLvfg"}, "sqlcmd")
	// OpenSSH 9 ssh-keygen (getopt "...N:P:..."): -N NEW_PASSPHRASE,
	// -P PASSPHRASE.
	add(&sparseTable{grammar: "OpenSSH 9 ssh-keygen(1)", short: secretLetters(SecretWhole, "NP"), takes: "CDEFIMORVYZabfgjmnrstwz"}, "ssh-keygen")
	// Helm 3: "registry login -p/--password", "repo add --password".
	add(&sparseTable{grammar: "Helm 3 helm(1)", commands: map[string]*sparseTable{
		"registry login": {short: secretLetters(SecretWhole, "p"), long: secretLongs(SecretWhole, "password"), takes: "u"},
		"repo add":       {long: secretLongs(SecretWhole, "password")},
	}}, "helm")
	// GitHub CLI 2: "secret set NAME -b/--body VALUE" (elsewhere -b is a
	// body of text: a pull request's, an issue's).
	add(&sparseTable{grammar: "GitHub CLI 2 gh-secret-set(1)", commands: map[string]*sparseTable{
		"secret set": {short: secretLetters(SecretWhole, "b"), long: secretLongs(SecretWhole, "body"), takes: "eorRa", takesLong: set("env", "org", "repo", "visibility", "app")},
	}}, "gh")
	// Azure CLI 2 (argparse, which takes unique prefixes): "login
	// -p/--password", --client-secret, --account-key, --sas-token;
	// "keyvault secret set --value". --connection-string's AccountKey=
	// is the caller's assignment rule.
	az := &sparseTable{grammar: "Azure CLI 2 (argparse)", long: secretLongs(SecretWhole, "password", "client-secret", "account-key", "sas-token"), abbrev: 4,
		commands: map[string]*sparseTable{
			"login":               {short: secretLetters(SecretWhole, "p"), long: secretLongs(SecretWhole, "password"), takes: "ut", abbrev: 4},
			"keyvault secret set": {long: secretLongs(SecretWhole, "value"), abbrev: 4},
		}}
	add(az, "az")
	// AWS CLI 2: "configure set NAME VALUE" with a secret NAME
	// (aws_secret_access_key, aws_session_token), "ssm put-parameter
	// --value", "secretsmanager create-secret/put-secret-value
	// --secret-string/--secret-binary".
	secretString := &sparseTable{long: secretLongs(SecretWhole, "secret-string", "secret-binary")}
	add(&sparseTable{grammar: "AWS CLI 2 aws-configure-set(1)",
		takesLong: set("profile", "region", "output", "endpoint-url", "ca-bundle", "cli-read-timeout", "cli-connect-timeout", "color", "query", "cli-binary-format"),
		operands:  settingValue([]string{"configure", "set"}),
		commands: map[string]*sparseTable{
			"ssm put-parameter":                   {long: secretLongs(SecretWhole, "value")},
			"secretsmanager create-secret":        secretString,
			"secretsmanager put-secret-value":     secretString,
			"secretsmanager update-secret":        secretString,
			"iam create-login-profile":            {long: secretLongs(SecretWhole, "password")},
			"iam update-login-profile":            {long: secretLongs(SecretWhole, "password")},
			"cognito-idp admin-set-user-password": {long: secretLongs(SecretWhole, "password")},
		}}, "aws")
	// Google Cloud CLI: --password (sql users), and the files of keys
	// and tokens are paths, not secrets.
	add(&sparseTable{grammar: "Google Cloud CLI gcloud(1)", long: secretLongs(SecretWhole, "password"),
		takesLong: set("access-token-file", "key-file", "cred-file", "credential-file-override", "data-file")}, "gcloud")
	// HashiCorp Vault: "vault login TOKEN" (method=... assignments are
	// the caller's rule).
	add(&sparseTable{grammar: "Vault 1.x vault login", operands: operandAfter("login")}, "vault", "bao")
	m["htpasswd"] = readHtpasswd
	m["sqlplus"] = readSQLPlus
	return m
})

// readHtpasswd reads Apache 2.4 htpasswd(1): with -b the password is on
// the command line, the last operand: "htpasswd -b FILE USER PASSWORD",
// "htpasswd -nb USER PASSWORD". -C takes the bcrypt cost, -r the rounds.
func readHtpasswd(argv []string) Reading {
	r := Reading{Grammar: "Apache 2.4 htpasswd(1)"}
	var ops []int
	batch, stdout := false, false
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if len(w) < 2 || w[0] != '-' {
			ops = append(ops, i)
			continue
		}
		for j := 1; j < len(w); j++ {
			switch w[j] {
			case 'b':
				batch = true
			case 'n':
				stdout = true
			case 'C', 'r':
				if j+1 == len(w) {
					i++
				}
				j = len(w)
			}
		}
	}
	want := 3
	if stdout {
		want = 2
	}
	if batch && len(ops) >= want {
		r.Secrets = append(r.Secrets, Secret{Index: ops[want-1], Form: SecretWhole, Name: -1})
	}
	return r
}

// readSQLPlus reads Oracle SQL*Plus 19c's command line: options, then the
// logon USER/PASSWORD@CONNECT (first operand not a "@script"), then the
// start script.
func readSQLPlus(argv []string) Reading {
	r := Reading{Grammar: "Oracle SQL*Plus 19c sqlplus(1)"}
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		switch up := strings.ToUpper(w); {
		case up == "-M" || up == "-MARKUP" || up == "-R" || up == "-C" || up == "-COMPATIBILITY":
			i++ // takes a value
		case strings.HasPrefix(w, "-"):
		case strings.HasPrefix(w, "@"):
			return r
		default:
			r.Secrets = append(r.Secrets, Secret{Index: i, Form: SecretLogon, Name: -1})
			return r
		}
	}
	return r
}
