package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// wgetrcCommands are GNU Wget 1.21's wgetrc commands (src/init.c
// commands[], dehyphenated: wget removes "-" and "_" and ignores case
// before looking a name up; checked against the table in wget 1.21.3's
// binary and the manual's "Wgetrc Commands"), by what the policy makes of
// each: most only tune wget (robots=off, tries=3); some name a file wget
// writes, contained like the matching option; a few run a program, read
// another configuration or detach, and are refused.
var wgetrcCommands = func() map[string]wgetrcKind {
	m := map[string]wgetrcKind{}
	for _, c := range strings.Fields(`accept acceptregex addhostdir adjustextension alwaysrest askpassword
		authnochallenge backupconverted backups base bindaddress bodydata bodyfile cache cacertificate
		cadirectory certificate certificatetype checkcertificate ciphers compression connecttimeout
		contentdisposition contentonerror continue convertfileonly convertlinks cookies crlfile cutdirs
		debug defaultpage deleteafter dirstruct dnscache dnstimeout domains dotbytes dotsinline dotspacing
		dotstyle egdfile excludedirectories excludedomains followftp followtags forcehtml ftppasswd
		ftppassword ftpproxy ftpscleardataconnection ftpsfallbacktoftp ftpsimplicit ftpsresumessl ftpuser
		glob header hsts htmlextension htmlify httpkeepalive httppasswd httppassword httpproxy httpsonly
		httpsproxy httpuser ifmodifiedsince ignorecase ignorelength ignoretags includedirectories inet4only
		inet6only input iri keepbadhash keepsessioncookies limitrate loadcookies localencoding login
		maxredirect method mirror netrc noclobber noconfig noparent noproxy numtries pagerequisites
		passiveftp password pinnedpubkey postdata postfile preferfamily preservepermissions privatekey
		privatekeytype progress protocoldirectories proxypasswd proxypassword proxyuser quiet quota
		randomfile randomwait readtimeout reclevel recursive referer regextype reject rejectregex
		relativeonly remoteencoding removelisting reportspeed restrictfilenames retrsymlinks
		retryconnrefused retryonhosterror retryonhttperror robots saveheaders secureprotocol
		serverresponse showalldnsentries showprogress spanhosts spider startpos strictcomments timeout
		timestamping tries trustservernames unlink user useproxy useragent useservertimestamps verbose
		wait waitretry warccdx warccdxdedup warccompression warcdigests warcheader warckeeplog
		warcmaxsize xattr`) {
		m[c] = wgetrcInert
	}
	for c, k := range map[string]wgetrcKind{
		"outputdocument": wgetrcFile, "logfile": wgetrcFile, "savecookies": wgetrcFile,
		"rejectedlog": wgetrcFile, "hstsfile": wgetrcFile, "warcfile": wgetrcFile,
		"dirprefix": wgetrcDir, "warctempdir": wgetrcDir,
		"useaskpass": wgetrcRefused, "background": wgetrcRefused, "chooseconfig": wgetrcRefused,
	} {
		m[c] = k
	}
	return m
}()

type wgetrcKind uint8

const (
	wgetrcInert wgetrcKind = iota + 1
	wgetrcFile
	wgetrcDir
	wgetrcRefused
)

// wgetExecute judges one -e/--execute value, "command = value"
// (init.c parse_line).
func wgetExecute(ctx Context, ev *event) *Rejection {
	name, value, ok := strings.Cut(ev.Value, "=")
	key := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(name)))
	value = strings.TrimSpace(value)
	kind := wgetrcCommands[key]
	switch {
	case !ok || kind == 0:
		return ruleWgetExecOption.Reject(ev.Index, ev.Word,
			"argument %d %q is not a wgetrc command this policy knows (\"command = value\"); only known commands are allowed", ev.Index, ev.Word)
	case kind == wgetrcRefused:
		return ruleWgetExecOption.Reject(ev.Index, ev.Word,
			"argument %d %q runs the wgetrc command %s, which runs a program, reads another wgetrc or detaches from the call", ev.Index, ev.Word, key)
	case kind == wgetrcFile, kind == wgetrcDir:
		if redirect.Harmless(value) {
			return nil
		}
		k := redirect.File
		if kind == wgetrcDir {
			k = redirect.Dir
		}
		out := *ev
		out.Value = value
		return outputValue(ctx, "wget", &out, k)
	}
	return nil
}
