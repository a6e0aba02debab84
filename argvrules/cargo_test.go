package argvrules

import (
	"testing"
)

// cargoRows are the table rows of cargo: --config, +TOOLCHAIN paths, rustc
// and rustdoc arguments after --, output paths.
var cargoRows = familyRows([]row{
	{a("cargo", "check"), ""},
	{a("cargo", "build", "--release"), ""},
	{a("cargo", "+nightly", "test", "--", "--nocapture"), ""},
	{a("cargo", "test", "linker_tests"), ""},
	{a("cargo", "clippy", "--all-targets"), ""},
	{a("cargo", "install", "ripgrep"), ""},
	{a("cargo", "--config", "target.x86_64-unknown-linux-gnu.runner='sh -c id'", "run"), "cargo.config"},
	{a("cargo", "build", "--config=build.rustc-wrapper='./x'"), "cargo.config"},
	{a("cargo", "build", "--config", "extra.toml"), "cargo.config"},
	{a("cargo", "install", "--path", "."), "cargo.install-path"},
	{a("cargo", "install", "--path=."), "cargo.install-path"},
	{a("cargo", "rustc", "--", "-C", "linker=./x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-Clink-arg=-fuse-ld=./x"), "cargo.exec-option"},
	{a("cargo", "rustdoc", "--", "--runtool", "./x"), "cargo.exec-option"},
	{a("cargo", "build", "--target", "x.json"), "cargo.exec-option"},
	{a("cargo", "doc", "--open"), "cargo.exec-option"},
	{a("cargo", "evil"), "cargo.external-command"},
	{a("cargo", "rustc", "--", "-o", "/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "-o/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--emit=link=/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--emit", "asm,obj=../x.o"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--out-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "-C", "incremental=/tmp/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "@args.txt"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-Zdump-mir-dir=/tmp/x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-C", "llvm-args=-info-output-file=/tmp/x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "--extern", "m=/tmp/libm.so"), "cargo.exec-option"},
	{a("cargo", "rustdoc", "--", "-o", "/tmp/doc"), "cargo.output-path"},
	{a("cargo", "test", "--", "--logfile", "/tmp/elsewhere/log"), "cargo.output-path"},
	{a("cargo", "+/tmp/elsewhere/tc", "build"), "cargo.exec-option"},
	{a("cargo", "+./tc", "build"), "cargo.exec-option"},
	{a("cargo", "+nightly-2024-05-01", "build"), ""},
	{a("cargo", "rustc", "--release", "--", "-C", "opt-level=3", "--emit=asm"), ""},
	{a("cargo", "test", "--", "--nocapture", "--test-threads=1"), ""},
	{a("cargo", "build", "--target-dir", "build"), ""},
	{a("cargo", "build", "--target-dir", "target"), ""},
	{a("cargo", "build", "--target-dir=target/alt"), ""},
	{a("cargo", "build", "--target-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "build", "--target-dir=../x"), "cargo.output-path"},
	{a("cargo", "build", "-Z", "unstable-options", "--artifact-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "build", "--out-dir=/tmp/x"), "cargo.output-path"},
	{a("cargo", "test", "--target-dir", "out"), "cargo.output-path"}, // out -> /tmp
})

func TestCargoRows(t *testing.T) { checkRows(t, cargoRows) }
