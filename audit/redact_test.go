package audit

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// digested stands for "a [sha256:xxxxxxxx] digest" in the tables below.
const digested = "<digest>"

// argvCase is one row: an argv and what Argv must make of it.
type argvCase struct {
	name       string
	argv, want []string
}

func a(name string, argv []string, want ...string) argvCase {
	return argvCase{name, argv, want}
}

// Test credentials with the shapes of real ones (none is valid).
const (
	ghToken  = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	fineGH   = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
	glToken  = "glpat-0123456789abcdefghij"
	slack    = "xoxb-1234567890-abcdefghij"
	openai   = "sk-proj-0123456789abcdefghijKLMNOP"
	awsID    = "AKIAIOSFODNN7EXAMPLE"
	awsKey   = "LS7Rno1SJpqx965gyDAZzGtG395GGvG40Pe2K+9A"
	apiKey   = "h94sSeLDB01bDG8w6qgzuimg"
	jwtToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU"
)

// argvCases are the rule set, row by row, in both directions: the
// credential forms each grammar reads (every spelling its parser
// accepts) and the generic and value rules, and the values that must stay
// readable for a security review: file names whatever words they hold,
// option values of programs whose grammar says they are no secrets,
// words, commit ids, UUIDs.
var argvCases = []argvCase{
	// curl: -u/--user USER:PASSWORD in every spelling curl accepts, and
	// those it would refuse (an abbreviation) or read after an error.
	a("curl -u", []string{"curl", "-u", "alice:PW1", "https://h"}, "curl", "-u", "alice:"+Redacted, "https://h"),
	a("curl --user", []string{"curl", "--user", "alice:PW1"}, "curl", "--user", "alice:"+Redacted),
	a("curl --user=", []string{"curl", "--user=alice:PW1"}, "curl", "--user=alice:"+Redacted),
	a("curl -uVALUE", []string{"curl", "-ualice:PW1"}, "curl", "-ualice:"+Redacted),
	a("curl cluster -su", []string{"curl", "-su", "alice:PW1"}, "curl", "-su", "alice:"+Redacted),
	a("curl cluster -suVALUE", []string{"curl", "-sualice:PW1"}, "curl", "-sualice:"+Redacted),
	a("curl abbreviation --us", []string{"curl", "--us", "alice:PW1"}, "curl", "--us", "alice:"+Redacted),
	a("curl after an unknown option", []string{"curl", "--no-such", "x", "-u", "alice:PW1"}, "curl", "--no-such", "x", "-u", "alice:"+Redacted),
	a("curl option after the URL", []string{"curl", "https://h/x", "-u", "alice:PW1"}, "curl", "https://h/x", "-u", "alice:"+Redacted),
	a("curl -u user only", []string{"curl", "-u", "alice", "https://h"}, "curl", "-u", "alice", "https://h"),
	a("curl -U proxy", []string{"curl", "-U", "p:PW1", "https://h"}, "curl", "-U", "p:"+Redacted, "https://h"),
	a("curl --proxy-user=", []string{"curl", "--proxy-user=p:PW1"}, "curl", "--proxy-user=p:"+Redacted),
	a("curl -E cert:password", []string{"curl", "-E", "client.pem:PW1"}, "curl", "-E", "client.pem:"+Redacted),
	a("curl --cert file only", []string{"curl", "--cert", "client.pem", "--key", "client.key"}, "curl", "--cert", "client.pem", "--key", "client.key"),
	a("curl --oauth2-bearer", []string{"curl", "--oauth2-bearer", "tok123"}, "curl", "--oauth2-bearer", Redacted),
	a("curl --pass", []string{"curl", "--pass", "keyphrase"}, "curl", "--pass", Redacted),
	a("curl -b cookies", []string{"curl", "-b", "session=abc123; theme=dark"}, "curl", "-b", "session="+Redacted+"; theme="+Redacted),
	a("curl -b cookie file", []string{"curl", "-b", "cookies.txt"}, "curl", "-b", "cookies.txt"),
	a("curl -H Authorization", []string{"curl", "-H", "Authorization: Bearer abc"}, "curl", "-H", "Authorization: "+Redacted),
	a("curl -H X-Api-Key", []string{"curl", "-H", "X-Api-Key: abc"}, "curl", "-H", "X-Api-Key: "+Redacted),
	a("curl -H Accept stays", []string{"curl", "-H", "Accept: application/json"}, "curl", "-H", "Accept: application/json"),
	a("curl -d form password", []string{"curl", "-d", "user=bob&password=PW1"}, "curl", "-d", "user=bob&password="+Redacted),
	a("curl -d plain", []string{"curl", "-d", "name=bob&page=2"}, "curl", "-d", "name=bob&page=2"),

	// URLs anywhere: userinfo, signature and token parameters, fragments.
	a("url user:password", []string{"git", "clone", "https://user:s3cr3t@git.example.invalid/org/repo.git"}, "git", "clone", "https://"+Redacted+"@git.example.invalid/org/repo.git"),
	a("url token as user", []string{"git", "clone", "https://" + ghToken + "@github.com/o/r"}, "git", "clone", "https://"+Redacted+"@github.com/o/r"),
	a("url oauth2:token", []string{"git", "remote", "add", "origin", "https://oauth2:" + glToken + "@gitlab.com/o/r.git"}, "git", "remote", "add", "origin", "https://"+Redacted+"@gitlab.com/o/r.git"),
	a("url @ inside the password", []string{"curl", "https://bob:p@ss@w0rd@example.com/x"}, "curl", "https://"+Redacted+"@example.com/x"),
	a("url / inside the password", []string{"curl", "https://bob:a/b@example.com/x"}, "curl", "https://"+Redacted+"@example.com/x"),
	a("url port and @ in the path stay", []string{"curl", "https://registry.npmjs.org:443/@scope/pkg"}, "curl", "https://registry.npmjs.org:443/@scope/pkg"),
	a("url access_token", []string{"curl", "https://api.example.com/v1?access_token=abc123&page=2"}, "curl", "https://api.example.com/v1?access_token="+Redacted+"&page=2"),
	a("url X-Amz-Signature", []string{"curl", "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA/x&X-Amz-Signature=abcdef"},
		"curl", "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="+Redacted+"&X-Amz-Signature="+Redacted),
	a("url Azure sig", []string{"curl", "https://a.blob.core.windows.net/c/f?sv=2022&sp=r&sig=abc%2Bdef"}, "curl", "https://a.blob.core.windows.net/c/f?sv=2022&sp=r&sig="+Redacted),
	a("url fragment", []string{"curl", "https://app.example/cb#access_token=xyz"}, "curl", "https://app.example/cb#"+Redacted),
	a("url without credentials stays", []string{"curl", "https://example.com/api/token/list"}, "curl", "https://example.com/api/token/list"),
	a("url attached to an option", []string{"git", "--url=https://u:pw@h/x"}, "git", "--url=https://"+Redacted+"@h/x"),
	a("url inside a setting name", []string{"git", "config", "--global", "url.https://tok@github.com/.insteadOf", "https://github.com/"}, "git", "config", "--global", "url.https://"+Redacted+"@github.com/.insteadOf", "https://github.com/"),
	a("url in an assignment", []string{"go", "env", "-w", "GOPROXY=https://u:pw@proxy.example"}, "go", "env", "-w", "GOPROXY=https://"+Redacted+"@proxy.example"),

	// wget: the passwords, abbreviated as getopt_long allows; user names
	// stay.
	a("wget --password=", []string{"wget", "--password=PW1", "https://h"}, "wget", "--password="+Redacted, "https://h"),
	a("wget --http-password", []string{"wget", "--http-password", "PW1"}, "wget", "--http-password", Redacted),
	a("wget --passw= abbreviation", []string{"wget", "--passw=PW1"}, "wget", "--passw="+Redacted),
	a("wget --user stays", []string{"wget", "--user", "bob", "https://h"}, "wget", "--user", "bob", "https://h"),
	a("wget -e http_password", []string{"wget", "-e", "http_password=PW1"}, "wget", "-e", "http_password="+Redacted),
	a("wget --header", []string{"wget", "--header=Authorization: token abc"}, "wget", "--header=Authorization: "+Redacted),

	// Container clients: login's -p only (elsewhere -p is a port).
	a("docker login -p", []string{"docker", "login", "-u", "bob", "-p", "PW1", "reg.example"}, "docker", "login", "-u", "bob", "-p", Redacted, "reg.example"),
	a("docker login --password=", []string{"docker", "login", "--password=PW1"}, "docker", "login", "--password="+Redacted),
	a("docker login -pVALUE", []string{"docker", "login", "-pPW1"}, "docker", "login", "-p"+Redacted),
	a("docker login --password-stdin stays", []string{"docker", "login", "-u", "bob", "--password-stdin"}, "docker", "login", "-u", "bob", "--password-stdin"),
	a("docker run -p port stays", []string{"docker", "run", "-p", "8080:80", "nginx"}, "docker", "run", "-p", "8080:80", "nginx"),
	a("docker run -e secret", []string{"docker", "run", "-e", "DB_PASSWORD=PW1", "img"}, "docker", "run", "-e", "DB_PASSWORD="+Redacted, "img"),
	a("docker --env-file stays", []string{"docker", "run", "--env-file", ".env", "img"}, "docker", "run", "--env-file", ".env", "img"),
	a("podman login -p", []string{"podman", "login", "-p", "PW1", "quay.io"}, "podman", "login", "-p", Redacted, "quay.io"),
	a("helm registry login -p", []string{"helm", "registry", "login", "-u", "bob", "-p", "PW1", "r"}, "helm", "registry", "login", "-u", "bob", "-p", Redacted, "r"),

	// kubectl.
	a("kubectl --token=", []string{"kubectl", "--token=T0k", "get", "pods"}, "kubectl", "--token="+Redacted, "get", "pods"),
	a("kubectl --from-literal", []string{"kubectl", "create", "secret", "generic", "s", "--from-literal=password=PW1"}, "kubectl", "create", "secret", "generic", "s", "--from-literal=password="+Redacted),
	a("kubectl --from-literal any key", []string{"kubectl", "create", "secret", "generic", "s", "--from-literal=username=admin"}, "kubectl", "create", "secret", "generic", "s", "--from-literal=username="+Redacted),
	a("kubectl --docker-password", []string{"kubectl", "create", "secret", "docker-registry", "r", "--docker-password=PW1"}, "kubectl", "create", "secret", "docker-registry", "r", "--docker-password="+Redacted),
	a("kubectl set-credentials", []string{"kubectl", "config", "set-credentials", "bob", "--password=PW1"}, "kubectl", "config", "set-credentials", "bob", "--password="+Redacted),
	a("kubectl get secret stays", []string{"kubectl", "get", "secret", "mysecret", "-n", "kube-system"}, "kubectl", "get", "secret", "mysecret", "-n", "kube-system"),

	// Cloud clients.
	a("aws configure set secret", []string{"aws", "configure", "set", "aws_secret_access_key", "V4lue"}, "aws", "configure", "set", "aws_secret_access_key", Redacted),
	a("aws configure set after --profile", []string{"aws", "--profile", "prod", "configure", "set", "aws_session_token", "V4lue"}, "aws", "--profile", "prod", "configure", "set", "aws_session_token", Redacted),
	a("aws configure set region stays", []string{"aws", "configure", "set", "region", "eu-west-1"}, "aws", "configure", "set", "region", "eu-west-1"),
	a("aws ssm put-parameter --value", []string{"aws", "ssm", "put-parameter", "--name", "db", "--value", "PW1"}, "aws", "ssm", "put-parameter", "--name", "db", "--value", Redacted),
	a("aws --secret-string", []string{"aws", "secretsmanager", "create-secret", "--name", "x", "--secret-string", `{"p":"x"}`}, "aws", "secretsmanager", "create-secret", "--name", "x", "--secret-string", Redacted),
	a("az login -p", []string{"az", "login", "-u", "bob", "-p", "PW1"}, "az", "login", "-u", "bob", "-p", Redacted),
	a("az --pass abbreviation", []string{"az", "login", "--pass=PW1"}, "az", "login", "--pass="+Redacted),
	a("az keyvault --value", []string{"az", "keyvault", "secret", "set", "--name", "n", "--value", "PW1"}, "az", "keyvault", "secret", "set", "--name", "n", "--value", Redacted),
	a("az --account-key", []string{"az", "storage", "blob", "list", "--account-key", "K3y"}, "az", "storage", "blob", "list", "--account-key", Redacted),
	a("az connection string", []string{"az", "storage", "blob", "list", "--connection-string", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=K3y"}, "az", "storage", "blob", "list", "--connection-string", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey="+Redacted),
	a("gcloud --password=", []string{"gcloud", "sql", "users", "set-password", "root", "--password=PW1"}, "gcloud", "sql", "users", "set-password", "root", "--password="+Redacted),
	a("gcloud --key-file stays", []string{"gcloud", "auth", "activate-service-account", "--key-file=key.json"}, "gcloud", "auth", "activate-service-account", "--key-file=key.json"),
	a("gcloud --access-token-file stays", []string{"gcloud", "--access-token-file", "/run/t", "projects", "list"}, "gcloud", "--access-token-file", "/run/t", "projects", "list"),
	a("gh secret set -b", []string{"gh", "secret", "set", "TOKEN", "-b", "V4lue"}, "gh", "secret", "set", "TOKEN", "-b", Redacted),
	a("gh pr create -b stays", []string{"gh", "pr", "create", "-b", "fix the password reset"}, "gh", "pr", "create", "-b", "fix the password reset"),

	// Package managers.
	a("npm config set authToken", []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken", "T0k"}, "npm", "config", "set", "//registry.npmjs.org/:_authToken", Redacted),
	a("npm config set key=value", []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken=T0k"}, "npm", "config", "set", "//registry.npmjs.org/:_authToken="+Redacted),
	a("npm config set registry stays", []string{"npm", "config", "set", "registry", "https://r.example"}, "npm", "config", "set", "registry", "https://r.example"),
	a("npm --otp", []string{"npm", "publish", "--otp", "123456"}, "npm", "publish", "--otp", Redacted),
	a("npm --ot= abbreviation", []string{"npm", "publish", "--ot=123456"}, "npm", "publish", "--ot="+Redacted),
	a("yarn config set npmAuthToken", []string{"yarn", "config", "set", "npmAuthToken", "T0k"}, "yarn", "config", "set", "npmAuthToken", Redacted),
	a("cargo login TOKEN", []string{"cargo", "login", "cio0123456789"}, "cargo", "login", Redacted),
	a("cargo publish --token", []string{"cargo", "publish", "--token", "cio0123456789"}, "cargo", "publish", "--token", Redacted),
	a("vault login TOKEN", []string{"vault", "login", "s.abcdef"}, "vault", "login", Redacted),
	a("vault login userpass", []string{"vault", "login", "-method=userpass", "username=bob", "password=PW1"}, "vault", "login", "-method=userpass", "username=bob", "password="+Redacted),

	// git.
	a("git config user.password", []string{"git", "config", "user.password", "PW1"}, "git", "config", "user.password", Redacted),
	a("git config set (2.46)", []string{"git", "config", "set", "--global", "credential.token", "T0k"}, "git", "config", "set", "--global", "credential.token", Redacted),
	a("git config user.name stays", []string{"git", "config", "--global", "user.name", "alice"}, "git", "config", "--global", "user.name", "alice"),
	a("git -c extraHeader", []string{"git", "-c", "http.extraHeader=Authorization: Bearer T0k3n.abc1", "fetch"}, "git", "-c", "http.extraHeader=Authorization: Bearer "+Redacted, "fetch"),
	a("git commit message stays", []string{"git", "commit", "-m", "rotate the password"}, "git", "commit", "-m", "rotate the password"),
	a("git log --author stays", []string{"git", "log", "--author=alice", "--grep=token"}, "git", "log", "--author=alice", "--grep=token"),
	a("git show sha stays", []string{"git", "show", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}, "git", "show", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),

	// Databases.
	a("mysql -pVALUE", []string{"mysql", "-uroot", "-pPW1", "db"}, "mysql", "-uroot", "-p"+Redacted, "db"),
	a("mysql -p VALUE (misplaced)", []string{"mysql", "-p", "PW1", "db"}, "mysql", "-p", Redacted, "db"),
	a("mysql --password=", []string{"mysql", "--password=PW1"}, "mysql", "--password="+Redacted),
	a("mysql --pass= prefix", []string{"mysql", "--pass=PW1"}, "mysql", "--pass="+Redacted),
	a("mysql without password stays", []string{"mysql", "-u", "root", "-h", "localhost", "db"}, "mysql", "-u", "root", "-h", "localhost", "db"),
	a("mysqldump by path", []string{"/usr/bin/mysqldump", "-psecretpw"}, "/usr/bin/mysqldump", "-p"+Redacted),
	a("mysqladmin password NEW", []string{"mysqladmin", "-u", "root", "password", "N3wpw"}, "mysqladmin", "-u", "root", "password", Redacted),
	a("psql URL", []string{"psql", "postgresql://u:PW1@h/db"}, "psql", "postgresql://"+Redacted+"@h/db"),
	a("psql conninfo", []string{"psql", "host=h user=u password=PW1 dbname=d"}, "psql", "host=h user=u password="+Redacted+" dbname=d"),
	a("sqlplus logon", []string{"sqlplus", "scott/PW1@orcl"}, "sqlplus", "scott/"+Redacted+"@orcl"),
	a("sqlplus -S logon and script", []string{"sqlplus", "-S", "scott/PW1@//db:1521/svc", "@run.sql"}, "sqlplus", "-S", "scott/"+Redacted+"@//db:1521/svc", "@run.sql"),
	a("sqlplus / as sysdba stays", []string{"sqlplus", "/", "as", "sysdba"}, "sqlplus", "/", "as", "sysdba"),
	a("sqlplus /nolog stays", []string{"sqlplus", "/nolog"}, "sqlplus", "/nolog"),
	a("sqlcmd -P", []string{"sqlcmd", "-S", "srv", "-U", "sa", "-P", "PW1"}, "sqlcmd", "-S", "srv", "-U", "sa", "-P", Redacted),
	a("redis-cli -a", []string{"redis-cli", "-h", "h", "-a", "PW1", "ping"}, "redis-cli", "-h", "h", "-a", Redacted, "ping"),
	a("mongosh -p", []string{"mongosh", "-u", "bob", "-p", "PW1"}, "mongosh", "-u", "bob", "-p", Redacted),

	// Archives and keys.
	a("7z -pVALUE", []string{"7z", "x", "-pPW1", "a.7z"}, "7z", "x", "-p"+Redacted, "a.7z"),
	a("7z other switches stay", []string{"7z", "a", "-mx=9", "-spf", "out.7z"}, "7z", "a", "-mx=9", "-spf", "out.7z"),
	a("unrar -pVALUE", []string{"unrar", "x", "-pPW1", "a.rar"}, "unrar", "x", "-p"+Redacted, "a.rar"),
	a("zip -P", []string{"zip", "-P", "PW1", "out.zip", "f"}, "zip", "-P", Redacted, "out.zip", "f"),
	a("zip --password", []string{"zip", "--password", "PW1", "out.zip", "f"}, "zip", "--password", Redacted, "out.zip", "f"),
	a("unzip -P", []string{"unzip", "-P", "PW1", "a.zip"}, "unzip", "-P", Redacted, "a.zip"),
	a("openssl -passin pass:", []string{"openssl", "rsa", "-passin", "pass:PW1", "-in", "key.pem"}, "openssl", "rsa", "-passin", "pass:"+Redacted, "-in", "key.pem"),
	a("openssl -passin file: stays", []string{"openssl", "rsa", "-passin", "file:pw.txt"}, "openssl", "rsa", "-passin", "file:pw.txt"),
	a("openssl -passout env: stays", []string{"openssl", "genrsa", "-passout", "env:PW_VAR"}, "openssl", "genrsa", "-passout", "env:PW_VAR"),
	a("openssl enc -k", []string{"openssl", "enc", "-aes-256-cbc", "-k", "PW1", "-in", "f"}, "openssl", "enc", "-aes-256-cbc", "-k", Redacted, "-in", "f"),
	a("openssl -password pass:", []string{"openssl", "pkcs12", "-export", "-password", "pass:PW1", "-out", "a.p12"}, "openssl", "pkcs12", "-export", "-password", "pass:"+Redacted, "-out", "a.p12"),
	a("openssl -key and -keyout stay", []string{"openssl", "req", "-key", "k.pem", "-keyout", "key.pem"}, "openssl", "req", "-key", "k.pem", "-keyout", "key.pem"),
	a("keytool -storepass", []string{"keytool", "-list", "-keystore", "ks.jks", "-storepass", "PW1"}, "keytool", "-list", "-keystore", "ks.jks", "-storepass", Redacted),
	a("ssh-keygen -N", []string{"ssh-keygen", "-t", "ed25519", "-N", "n3w", "-f", "id"}, "ssh-keygen", "-t", "ed25519", "-N", Redacted, "-f", "id"),
	a("ssh-keygen -p -P -N", []string{"ssh-keygen", "-p", "-P", "old", "-N", "new", "-f", "id"}, "ssh-keygen", "-p", "-P", Redacted, "-N", Redacted, "-f", "id"),
	a("ssh-keygen key file stays", []string{"ssh-keygen", "-l", "-f", "~/.ssh/id_ed25519"}, "ssh-keygen", "-l", "-f", "~/.ssh/id_ed25519"),
	a("htpasswd -b", []string{"htpasswd", "-b", ".htpasswd", "bob", "PW1"}, "htpasswd", "-b", ".htpasswd", "bob", Redacted),
	a("htpasswd -nb", []string{"htpasswd", "-nbB", "bob", "PW1"}, "htpasswd", "-nbB", "bob", Redacted),
	a("htpasswd prompts: stays", []string{"htpasswd", "-c", ".htpasswd", "bob"}, "htpasswd", "-c", ".htpasswd", "bob"),
	a("sshpass -p", []string{"sshpass", "-p", "PW1", "ssh", "host"}, "sshpass", "-p", Redacted, "ssh", "host"),
	a("smbclient -U user%password", []string{"smbclient", "-U", "bob%PW1", "//h/s"}, "smbclient", "-U", "bob%"+Redacted, "//h/s"),
	a("ldapsearch -w", []string{"ldapsearch", "-D", "cn=admin", "-w", "PW1"}, "ldapsearch", "-D", "cn=admin", "-w", Redacted),

	// Programs run by others, pipelines, data "|".
	a("a program as an operand", []string{"timeout", "5", "curl", "-u", "a:PW1", "https://h"}, "timeout", "5", "curl", "-u", "a:"+Redacted, "https://h"),
	a("nested wrappers", []string{"nice", "-n", "5", "env", "LC_ALL=C", "timeout", "-k", "1", "5", "curl", "--user=a:PW1", "https://h"},
		"nice", "-n", "5", "env", "LC_ALL=C", "timeout", "-k", "1", "5", "curl", "--user=a:"+Redacted, "https://h"),
	a("xargs -I", []string{"xargs", "-I{}", "curl", "-u", "a:PW1", "{}"}, "xargs", "-I{}", "curl", "-u", "a:"+Redacted, "{}"),
	a("a refused env form still read", []string{"env", "LD_PRELOAD=x", "wget", "--password=PW1", "https://h"}, "env", "LD_PRELOAD=x", "wget", "--password="+Redacted, "https://h"),
	a("sshpass running mysql", []string{"sshpass", "-p", "PW1", "mysql", "-pPW2"}, "sshpass", "-p", Redacted, "mysql", "-p"+Redacted),
	a("a later stage", []string{"echo", "x", "|", "curl", "-u", "a:PW1"}, "echo", "x", "|", "curl", "-u", "a:"+Redacted),
	a("a '|' that is data", []string{"curl", "-x", "|", "-u", "a:PW1"}, "curl", "-x", "|", "-u", "a:"+Redacted),

	// Programs with no grammar here: options named as secrets, and
	// assignments.
	a("--password value", []string{"tool", "--password", "Hunter2pw"}, "tool", "--password", Redacted),
	a("--token=value", []string{"tool", "--token=abc"}, "tool", "--token="+Redacted),
	a("--pw=value", []string{"tool", "--pw=hunter2"}, "tool", "--pw="+Redacted),
	a("-token value", []string{"tool", "-token", "s.abc"}, "tool", "-token", Redacted),
	a("--api-key value", []string{"tool", "--api-key", "k1"}, "tool", "--api-key", Redacted),
	a("--client-secret=", []string{"tool", "--client-secret=k1"}, "tool", "--client-secret="+Redacted),
	a("gpg --passphrase", []string{"gpg", "--batch", "--passphrase", "PW1", "-d", "f.gpg"}, "gpg", "--batch", "--passphrase", Redacted, "-d", "f.gpg"),
	a("--password-file stays", []string{"tool", "--password-file", "/run/secrets/pw"}, "tool", "--password-file", "/run/secrets/pw"),
	a("--passphrase-fd stays", []string{"gpg", "--passphrase-fd", "0"}, "gpg", "--passphrase-fd", "0"),
	a("--no-password stays", []string{"tool", "--no-password", "--verbose"}, "tool", "--no-password", "--verbose"),
	a("--token with a file", []string{"tool", "--token", "./token.txt"}, "tool", "--token", "./token.txt"),
	a("--key-id stays", []string{"tool", "--key-id", "0x1234"}, "tool", "--key-id", "0x1234"),
	a("secret variable name", []string{"make", "SECRET_TOKEN=super-secret"}, "make", "SECRET_TOKEN="+Redacted),
	a("ordinary variable stays", []string{"make", "CFLAGS=-O2", "name=hunter2token"}, "make", "CFLAGS=-O2", "name=hunter2token"),
	a("terraform -var", []string{"terraform", "apply", "-var", "db_password=PW1"}, "terraform", "apply", "-var", "db_password="+Redacted),
	a("mount -o option list", []string{"mount", "-o", "username=bob,password=PW1", "//h/s", "/mnt"}, "mount", "-o", "username=bob,password="+Redacted, "//h/s", "/mnt"),

	// Shapes.
	a("GitHub token", []string{"echo", ghToken}, "echo", Redacted),
	a("GitHub fine-grained token", []string{"echo", fineGH}, "echo", Redacted),
	a("GitLab token", []string{"echo", glToken}, "echo", Redacted),
	a("Slack token", []string{"echo", slack}, "echo", Redacted),
	a("sk- key", []string{"echo", openai}, "echo", Redacted),
	a("AWS access key id", []string{"echo", awsID}, "echo", Redacted),
	a("AWS secret key (high entropy)", []string{"echo", awsKey}, "echo", Redacted),
	a("random API key (high entropy)", []string{"echo", apiKey}, "echo", Redacted),
	a("JWT", []string{"echo", jwtToken}, "echo", Redacted),
	a("Bearer credential", []string{"echo", "Bearer abcdefghij"}, "echo", "Bearer "+Redacted),
	a("token inside a value", []string{"echo", "GH=" + ghToken}, "echo", "GH="+Redacted),
	a("PEM key", []string{"echo", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----"}, "echo", Redacted),

	// What a review needs kept.
	a("cat /etc/passwd", []string{"cat", "/etc/passwd"}, "cat", "/etc/passwd"),
	a("cat .git-credentials", []string{"cat", ".git-credentials"}, "cat", ".git-credentials"),
	a("auth source file", []string{"cat", "src/auth/handler.go"}, "cat", "src/auth/handler.go"),
	a("long path", []string{"cat", "docs/architecture/authentication-flow-and-token-refresh.md"}, "cat", "docs/architecture/authentication-flow-and-token-refresh.md"),
	a("ssh key path", []string{"ssh", "-i", "~/.ssh/deploy_key", "host"}, "ssh", "-i", "~/.ssh/deploy_key", "host"),
	a("sort --key=2", []string{"sort", "--key=2", "-t:", "/etc/passwd"}, "sort", "--key=2", "-t:", "/etc/passwd"),
	a("sort -k2", []string{"sort", "-k2", "f"}, "sort", "-k2", "f"),
	a("grep password", []string{"grep", "-rn", "password", "config.yaml"}, "grep", "-rn", "password", "config.yaml"),
	a("grep TOKEN", []string{"grep", "-r", "TOKEN", "."}, "grep", "-r", "TOKEN", "."),
	a("find -name secret", []string{"find", ".", "-name", "*secret*"}, "find", ".", "-name", "*secret*"),
	a("words with markers inside", []string{"echo", "compass", "passage", "monkey", "author", "keyboard", "my-secret", "API_KEY"},
		"echo", "compass", "passage", "monkey", "author", "keyboard", "my-secret", "API_KEY"),
	a("free text", []string{"echo", "the password is on the wiki"}, "echo", "the password is on the wiki"),
	a("UUID", []string{"echo", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"}, "echo", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
	a("sha256 digest", []string{"echo", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}, "echo", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	a("identifier", []string{"go", "test", "-run", "TestHandlerRefreshesExpiredTokens2", "./auth"}, "go", "test", "-run", "TestHandlerRefreshesExpiredTokens2", "./auth"),
	a("pod name", []string{"kubectl", "logs", "nginx-deployment-7d9c8f6b5-x2k4p"}, "kubectl", "logs", "nginx-deployment-7d9c8f6b5-x2k4p"),
	a("jq --arg key", []string{"jq", "--arg", "key", "value", "f.json"}, "jq", "--arg", "key", "value", "f.json"),
	a("tar of a secrets directory", []string{"tar", "czf", "backup.tar.gz", "secrets/"}, "tar", "czf", "backup.tar.gz", "secrets/"),
	a("option names stay", []string{"tool", "--author=alice", "-v"}, "tool", "--author=alice", "-v"),
	a("long number stays", []string{"echo", "123456789012345678901234567890123456789"}, "echo", "123456789012345678901234567890123456789"),
	a("long value capped", []string{"echo", strings.Repeat("a ", 200)}, "echo", digested),
}

func init() {
	seen := map[string]bool{}
	for _, c := range argvCases {
		if len(c.argv) != len(c.want) {
			panic("audit: row " + c.name + ": argv and want differ in length")
		}
		k := strings.Join(c.argv, "\x00")
		if seen[k] {
			panic("audit: duplicate row " + c.name)
		}
		seen[k] = true
	}
}

func TestArgvRedaction(t *testing.T) {
	leaks, over := 0, 0
	for _, c := range argvCases {
		got := Argv(c.argv)
		for i := range got {
			if matches(got[i], c.want[i]) {
				continue
			}
			if strings.Contains(c.want[i], Redacted) || c.want[i] == digested {
				leaks++
			} else {
				over++
			}
			t.Errorf("%s: Argv(%q)[%d] = %q, want %q", c.name, c.argv, i, got[i], c.want[i])
		}
	}
	// Both directions, each with enough forms to stand for its kind: rows
	// with a credential to mask, and rows whose every element stays whole.
	masked, kept := 0, 0
	for _, c := range argvCases {
		if slices.ContainsFunc(c.want, func(w string) bool { return strings.Contains(w, Redacted) || w == digested }) {
			masked++
		} else {
			kept++
		}
	}
	t.Logf("%d forms (%d with a credential masked, %d kept whole): %d elements left a credential, %d were over-redacted", len(argvCases), masked, kept, leaks, over)
	if len(argvCases) < 100 || masked < 50 || kept < 30 {
		t.Errorf("the table has %d forms, %d masked and %d kept whole: want at least 100, 50 and 30", len(argvCases), masked, kept)
	}
}

func matches(got, want string) bool {
	if want == digested {
		return strings.Contains(got, "...[sha256:") && len(got) <= maxPlain
	}
	return got == want
}

func TestEnvRedactionKeepsNames(t *testing.T) {
	got := Env(map[string]string{"GITHUB_TOKEN": "x", "API_KEY": "y", "LANG": "C.UTF-8", "LC_ALL": "C", "DB_URL": "postgres://u:p@h/db", "MY_SETTING": "plain"})
	want := map[string]string{"GITHUB_TOKEN": Redacted, "API_KEY": Redacted, "LANG": "C.UTF-8", "LC_ALL": "C", "DB_URL": Redacted, "MY_SETTING": Redacted}
	if len(got) != len(want) {
		t.Fatalf("Env = %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Env[%s] = %q, want %q", k, got[k], v)
		}
	}
	// A token pasted as a variable's name is a credential too.
	if got := Env(map[string]string{ghToken: "x", "GITHUB_TOKEN": "y"}); got[Redacted] != Redacted || got["GITHUB_TOKEN"] != Redacted || len(got) != 2 {
		t.Errorf("Env with a token as a name = %v", got)
	}
	if got := Env(map[string]string{strings.Repeat("N", 100): "v"}); len(got) != 1 {
		t.Errorf("Env with a long name = %v", got)
	} else {
		for k := range got {
			if !strings.Contains(k, "[sha256:") || len(k) > maxName {
				t.Errorf("a 100-character name is recorded as %q", k)
			}
		}
	}
}

// TestReasonRedaction: reasons lose the client's secrets they quote and
// keep every word the server wrote.
func TestReasonRedaction(t *testing.T) {
	argv := []string{"curl", "-u", "bob:hunter2", "--token=abc", "compass"}
	quotes := Quotes(argv, map[string]string{"DB_PW": "pw-value"})
	for _, tt := range []struct{ in, want string }{
		{"argument 1 contains a NUL byte, which cannot be passed to a program", "argument 1 contains a NUL byte, which cannot be passed to a program"},
		{"missing or invalid bearer token", "missing or invalid bearer token"},
		{"the environment variable PASSWORD_FILE is not delegated", "the environment variable PASSWORD_FILE is not delegated"},
		{`curl option -u value "bob:hunter2" refused`, `curl option -u value "bob:[REDACTED]" refused`},
		{"Command not allowed: --token=abc", "Command not allowed: --token=[REDACTED]"},
		{"envs DB_PW=pw-value refused", "envs DB_PW=[REDACTED] refused"},
		{"compass stays, compassion too", "compass stays, compassion too"},
		{"header Authorization: Bearer abc.def-123 refused", "header Authorization: Bearer [REDACTED] refused"},
		{"clone of https://tok@github.com/x failed", "clone of https://[REDACTED]@github.com/x failed"},
		{`type: "ghp_0123456789abcdefghijklmnopqrstuvwxyz" has type "string"`, `type: "[REDACTED]" has type "string"`},
	} {
		if got := Reason(tt.in, quotes); got != tt.want {
			t.Errorf("Reason(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
	// A short secret inside a longer word is not a quote of it.
	if got := Reason("the pwd is shown", []Quote{{"pw", Redacted}}); got != "the pwd is shown" {
		t.Errorf("partial-word replacement: %q", got)
	}
}

func TestRawArgumentsAreRedactedInReasons(t *testing.T) {
	r := Record{
		Reason: `validating /properties/timeout: type: hunter2-secret has type "string"; envs: DB_PW=letmein`,
		Args:   json.RawMessage(`{"command":["mysql","-p","sqlpw"],"timeout":"hunter2-secret","envs":{"DB_PW":"letmein"}}`),
	}
	got := Reason(r.Reason, r.quotes(nil))
	for _, secret := range []string{"hunter2-secret", "letmein"} {
		if strings.Contains(got, secret) {
			t.Errorf("reason keeps %q: %s", secret, got)
		}
	}
	if !strings.HasPrefix(got, "validating /properties/timeout: type: ") {
		t.Errorf("reason lost the server's words: %s", got)
	}
}

func TestCapped(t *testing.T) {
	if got := Capped("short", 10); got != "short" {
		t.Errorf("Capped kept %q", got)
	}
	long := strings.Repeat("é", 1000)
	got := Capped(long, 100)
	if len(got) > 100 || !strings.Contains(got, "[sha256:") || !strings.Contains(got, "2000 bytes") {
		t.Errorf("Capped = %q (%d bytes)", got, len(got))
	}
}

func FuzzArgv(f *testing.F) {
	for _, s := range []string{"", "a=b", "TOKEN=x", strings.Repeat("z", 40), "\xff\xfe", "https://u:p@h", "-psecret", "https://h/token"} {
		f.Add("mysql", s, "tail")
	}
	f.Fuzz(func(t *testing.T, prog, s, tail string) {
		got := Argv([]string{prog, s, tail})
		if len(got) != 3 {
			t.Fatalf("Argv returned %d elements", len(got))
		}
		// A token-shaped value never survives, wherever it stands.
		if tok := Argv([]string{prog, s, ghToken})[2]; strings.Contains(tok, "ghp_") {
			t.Errorf("a token after %q kept: %q", s, tok)
		}
		// After a secret option of a program without a grammar, the value
		// never survives (unless it names a file).
		if v := Argv([]string{"tool", "--password", s})[2]; v != Redacted && s != "" && !pathLike(s) {
			t.Errorf("value after --password kept: %q -> %q", s, v)
		}
		// Every element is bounded.
		for _, g := range got {
			if len(g) > maxPlain {
				t.Errorf("element of %d bytes", len(g))
			}
		}
	})
}
