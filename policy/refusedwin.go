package policy

// The Windows part of the categorical refusal list. Names come from the
// LOLBAS project catalogue (github.com/LOLBAS-Project/LOLBAS, yml/ at
// commit 3403b33, 2026-07-31: every binary, script or library whose
// entries show it executing a command, a DLL, a script or a downloaded
// file, plus the download-and-decode tools named there), checked against
// Microsoft Learn's Windows Commands reference for what each program
// documents itself doing. Keys are lower-case names without extension:
// naming.base and stripExec turn "C:/Windows/System32/CMD.EXE" into cmd.
//
// On Linux and macOS these names are refused too: none of them is an
// ordinary Unix tool, so refusing cmd or mshta there costs nothing and
// keeps one list for every platform. The exception is
// windowsOnlyGroups: names a Unix system also uses for an unrelated
// program (NSS certutil, coreutils expand, util-linux logger and write,
// ncurses reset ...). Those are refused on Windows in every spelling and
// elsewhere only when spelled with a Windows extension (certutil.exe),
// which only means the Windows program.
var windowsGroups = []refusedGroup{
	{"Windows shell or console host", "Microsoft Learn: cmd, command (COMMAND.COM), powershell_ise, wsl (\"wsl [command]\", wsl --exec), Windows Terminal wt (\"wt new-tab cmd\"), conhost; LOLBAS OSBinaries Cmd, Conhost, wt, Bash; OtherMSBinaries Wsl, OpenConsole", []string{
		"cmd", "command", "powershell_ise", "conhost", "openconsole", "wt", "wsl", "wslhost",
	}},
	{"Windows Script Host or HTML Application host", "Microsoft Learn: wscript, cscript (Windows Script Host runs .vbs .js .wsf), mshta (HTML Applications); LOLBAS OSBinaries Wscript, Cscript, Mshta; OSScripts Pubprn.vbs, Winrm.vbs, Manage-bde.wsf, Syncappvpublishingserver.vbs", []string{
		"wscript", "cscript", "mshta", "pubprn", "winrm", "manage-bde", "syncappvpublishingserver",
	}},
	{"Windows loader of DLLs, COM servers, .NET assemblies or installers", "Microsoft Learn: rundll32, regsvr32, msiexec, odbcconf, cmstp, netsh (add helper), pnputil, dnscmd (/config /serverlevelplugindll), mofcomp; .NET Framework tools Regasm.exe, Regsvcs.exe, Installutil.exe; LOLBAS OSBinaries Rundll32, Regsvr32, Regasm, Regsvcs, Installutil, Odbcconf, Msiexec, Cmstp, Infdefaultinstall, Mavinject, Register-cimprovider, Mofcomp, Addinutil, Ieexec, Dfsvc, Presentationhost, Microsoft.Workflow.Compiler, Aspnet_Compiler, Netsh, Pnputil, Dnscmd, setupugc; OtherMSBinaries msxsl, Dotnet (dotnet is left to the operator: it is also the cross-platform SDK)", []string{
		"rundll32", "regsvr32", "regasm", "regsvcs", "installutil", "odbcconf", "msiexec", "cmstp", "infdefaultinstall",
		"mavinject", "register-cimprovider", "mofcomp", "addinutil", "ieexec", "dfsvc", "presentationhost",
		"microsoft.workflow.compiler", "aspnet_compiler", "msxsl", "netsh", "pnputil", "dnscmd", "setupugc",
	}},
	{"Windows task scheduler, service or management tool that runs a command", "Microsoft Learn: schtasks (/create /tr), wmic (process call create), bitsadmin (/SetNotifyCmdLine) (at is in the command wrapper group); LOLBAS OSBinaries Schtasks, Wmic, Bitsadmin, At, CertOC, winget", []string{
		"schtasks", "wmic", "bitsadmin", "certoc", "winget",
	}},
	{"Windows program launcher (runs its operand)", "Microsoft Learn: forfiles (/c), runas, explorer, control, mmc, msconfig, msdt, hh, diskshadow (exec), makecab/diantz (/f directives), fsutil; LOLBAS OSBinaries Forfiles, Pcalua, Explorer, Atbroker, Pcwrun, Scriptrunner, Runonce, Runexehelper, Runscripthelper, Wlrmdr, Verclsid, Wuauclt, Xwizard, Provlaunch, CustomShellHost, OfflineScannerShell, Stordiag, SettingSyncHost, Gpscript, iediagcmd, Ie4uinit, Mmc, Msconfig, Msdt, Hh, Wab, wbemtest, Unregmp2, WorkFolders, Sigverif, Rasautou, Diskshadow, Diantz, Makecab, Extexport, Fsutil, Control, Setres, Msedge, msedge_proxy, msedgewebview2; OtherMSBinaries Appvlp, AgentExecutor, AppLauncher, AppCert, winfile, Mscopilot, Mscopilot_proxy, VSLaunchBrowser, DefaultPack, Devinit, wsb, Microsoft.NodejsTools.PressAnyKey", []string{
		"forfiles", "pcalua", "explorer", "runas", "atbroker", "pcwrun", "scriptrunner", "runonce", "runexehelper",
		"runscripthelper", "wlrmdr", "verclsid", "wuauclt", "xwizard", "provlaunch", "customshellhost",
		"offlinescannershell", "stordiag", "settingsynchost", "gpscript", "iediagcmd", "ie4uinit", "mmc", "msconfig",
		"msdt", "hh", "wab", "wbemtest", "unregmp2", "workfolders", "sigverif", "rasautou", "diskshadow", "diantz",
		"makecab", "extexport", "fsutil", "control", "setres", "msedge", "msedge_proxy", "msedgewebview2", "appvlp",
		"agentexecutor", "applauncher", "appcert", "winfile", "mscopilot", "mscopilot_proxy", "vslaunchbrowser",
		"defaultpack", "devinit", "wsb", "microsoft.nodejstools.pressanykey",
	}},
	{"Windows debugger, tracer or test host that runs its operand", "Microsoft Learn: Debugging Tools for Windows (cdb, ntsd, kd, windbg), Time Travel Debugging (ttdinject, tttracer), Sysinternals ProcDump (-x), TAEF te.exe, mpiexec (MS-MPI); LOLBAS OSBinaries Ttdinject, Tttracer; OtherMSBinaries Cdb, Ntsd, WinDbg, vsjitdebugger, te, Dxcap, Mftrace, Pixtool, Procdump, adplus, IntelliTrace, VSDiagnostics, XBootMgr, XBootMgrSleep, AccCheckConsole, coregen, Devtoolslauncher, VSIISExeLauncher, Vshadow, WFMFormat, vsls-agent, Bginfo, Mpiexec", []string{
		"cdb", "ntsd", "kd", "windbg", "windbgx", "vsjitdebugger", "ttdinject", "tttracer", "te", "dxcap", "mftrace",
		"pixtool", "procdump", "procdump64", "adplus", "intellitrace", "vsdiagnostics", "xbootmgr", "xbootmgrsleep",
		"accheckconsole", "coregen", "devtoolslauncher", "vsiisexelauncher", "vshadow", "wfmformat", "vsls-agent",
		"bginfo", "mpiexec",
	}},
	{"Windows build tool or script host that runs code", "Microsoft Learn: MSBuild (Exec task, inline tasks), C# Interactive csi, F# Interactive fsi, SQL Server sqlps; LOLBAS OSBinaries Msbuild; OtherMSBinaries csi, rcsi, Fsi, FsiAnyCpu, Sqlps, SQLToolsPS, Squirrel, Msdeploy", []string{
		"msbuild", "csi", "rcsi", "fsi", "fsianycpu", "sqlps", "sqltoolsps", "squirrel", "msdeploy",
	}},
	{"Windows download or decode tool", "LOLBAS OSBinaries CertReq, Esentutl, Extrac32, Findstr, Desktopimgdownldr, MpCmdRun, cmdl32, ConfigSecurityPolicy, AppInstaller, IMEWDBLD, PrintBrm, Ldifde, OneDriveStandaloneUpdater, msoxmled", []string{
		"certreq", "esentutl", "extrac32", "findstr", "desktopimgdownldr", "mpcmdrun", "cmdl32", "configsecuritypolicy",
		"appinstaller", "imewdbld", "printbrm", "ldifde", "onedrivestandaloneupdater", "msoxmled",
	}},
}

// windowsOnlyGroups are Windows programs whose names Unix systems use for
// unrelated tools (the source names both): refused on Windows in every
// spelling, elsewhere only as NAME.exe and the like.
var windowsOnlyGroups = []refusedGroup{
	{"Windows program launcher (runs its operand)", "LOLBAS OSBinaries Sc (create binPath=), Query, Reset, Change, write; OtherMSBinaries Logger, Tracker, Update, Remote, Teams; Unix namesakes: sc (spreadsheet calculator), ncurses reset, util-linux logger and write, GNOME tracker", []string{
		"sc", "query", "reset", "change", "logger", "write", "tracker", "update", "remote", "teams",
	}},
	{"Windows download or decode tool", "Microsoft Learn certutil (-urlcache -f, -decode), expand, replace, print; LOLBAS OSBinaries Certutil, Expand, Replace, Print, Finger; Unix namesakes: NSS certutil, coreutils expand, MariaDB replace, mailcap print, bsd-finger", []string{
		"certutil", "expand", "replace", "print", "finger",
	}},
}
