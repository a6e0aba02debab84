package audit

// credentialOptions are a program's options whose value is a credential
// although their names carry no marker: words are exact option spellings
// that take the next element as their value; shorts are the short
// options, also inside a cluster and with an attached value ("-pVALUE").
// Options whose names are secret-like ("--password", "--proxy-pass",
// "-token") need no row: the generic rule covers them for every program.
type credentialOptions struct {
	words  []string
	shorts string
}

// secretOptions are the credential options of programs that take them on
// the command line, by program basename. Sources: curl 8.x --help all
// (-u/--user user:password, -U/--proxy-user, -E/--cert cert[:password],
// --proxy-cert); GNU Wget 1.21 (--user, --http-user, --ftp-user,
// --proxy-user; the password forms are secret-like); MySQL/MariaDB client
// programs (-p[password], attached only, but "-p pw" is redacted too
// because the value then names a database that can be a password typed in
// the wrong place); sshpass -p; redis-cli -a; the MongoDB tools -p;
// smbclient -U user%password; OpenLDAP clients -w; Info-ZIP -P; 7-Zip -p
// (attached); OpenSSL -pass/-passin/-passout/-k; keytool's -storepass
// family; sqlcmd -P.
var secretOptions = map[string]credentialOptions{
	"curl": {words: []string{"--user", "--proxy-user", "--cert", "--proxy-cert"}, shorts: "uUE"},
	"wget": {words: []string{"--user", "--http-user", "--ftp-user", "--proxy-user"}},

	"mysql": {shorts: "p"}, "mysqldump": {shorts: "p"}, "mysqladmin": {shorts: "p"}, "mysqlimport": {shorts: "p"},
	"mysqlshow": {shorts: "p"}, "mysqlcheck": {shorts: "p"}, "mysqlbinlog": {shorts: "p"}, "mysqlslap": {shorts: "p"},
	"mariadb": {shorts: "p"}, "mariadb-dump": {shorts: "p"}, "mariadb-admin": {shorts: "p"}, "mariadb-import": {shorts: "p"},

	"sshpass":   {shorts: "p"},
	"redis-cli": {shorts: "a"},
	"mongo":     {shorts: "p"}, "mongosh": {shorts: "p"}, "mongodump": {shorts: "p"}, "mongorestore": {shorts: "p"},
	"mongoexport": {shorts: "p"}, "mongoimport": {shorts: "p"},
	"smbclient":  {shorts: "U"},
	"ldapsearch": {shorts: "w"}, "ldapmodify": {shorts: "w"}, "ldapadd": {shorts: "w"}, "ldapdelete": {shorts: "w"},
	"ldapwhoami": {shorts: "w"}, "ldappasswd": {shorts: "w"},
	"zip": {shorts: "P"}, "unzip": {shorts: "P"}, "zipcloak": {shorts: "P"},
	"7z": {shorts: "p"}, "7za": {shorts: "p"}, "7zr": {shorts: "p"},
	"openssl": {words: []string{"-pass", "-passin", "-passout", "-k"}},
	"keytool": {words: []string{"-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass"}},
	"sqlcmd":  {shorts: "P"},
}
