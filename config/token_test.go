package config

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTokenRefusedAtStartUp: the http transport refuses, at start-up and
// naming the variable the token came from, tokens that are short, known
// placeholders, repetitions or guessable runs, and accepts generated ones.
func TestTokenRefusedAtStartUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		token, why string // why is "" when the token is accepted
	}{
		{"REPLACE-WITH-AT-LEAST-16-RANDOM-CHARACTERS", "placeholder"},
		{"changeme-changeme-changeme", "placeholder"},
		{"your-token-here-0f3a9b2c", "placeholder"},
		{"<your secret goes here>", "placeholder"},
		{"xxxxxxxxxxxxxxxxxxxxxxxx", "placeholder"},
		{"short", "too short"},
		{"0000000000000000", "repeats"},
		{"Ab1Ab1Ab1Ab1Ab1Ab1", "repeats"},
		{"abcdefghijklmnopqrstuvwxyz", "too little entropy"},
		{"1234567890abcdef", "too little entropy"},
		{"aaaaaaaaaaaaaaaab", "too little entropy"},
		{"q7Vd2mXk9LpR4wTz8bNc", ""},
		{"ci-token-0f3a9b2c7d4e1a55", ""},
		{"correct-horse-battery-staple", ""},
	} {
		for _, fromFile := range []bool{false, true} {
			env, source := map[string]string{"MCP_SHELL_TRANSPORT": "http", "MCP_SHELL_HTTP_TOKEN": tt.token}, "MCP_SHELL_HTTP_TOKEN"
			if fromFile {
				f := filepath.Join(t.TempDir(), "token")
				if err := os.WriteFile(f, []byte(tt.token+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				env, source = map[string]string{"MCP_SHELL_TRANSPORT": "http", "MCP_SHELL_HTTP_TOKEN_FILE": f}, "MCP_SHELL_HTTP_TOKEN_FILE"
			}
			cfg, err := Parse(LookupMap(env), []string{dir})
			if tt.why == "" {
				if err != nil || cfg.HTTPToken != tt.token {
					t.Errorf("%s from %s refused: %v", tt.token, source, err)
				}
				continue
			}
			expectVarError(t, tt.token, err, source)
			if err != nil && !strings.Contains(err.Error(), tt.why) {
				t.Errorf("%s from %s: %v, want the reason %q", tt.token, source, err, tt.why)
			}
		}
	}
}

// TestGeneratedTokensAreAccepted: the tokens the documentation tells
// operators to make pass the check every time, and so do the shortest
// random tokens people make, nearly always.
func TestGeneratedTokensAreAccepted(t *testing.T) {
	t.Parallel()
	const draws = 2000
	short := 0
	for range draws {
		b := make([]byte, 32)
		rand.Read(b)
		if tok := base64.StdEncoding.EncodeToString(b); checkToken(tok) != "" {
			t.Fatalf("a documented token (32 random bytes, base64) was refused: %s: %s", tok, checkToken(tok))
		}
		if tok := hex.EncodeToString(b[:8]); checkToken(tok) != "" {
			short++
		}
	}
	// 16 hex digits estimate under minTokenBits in about 1 draw in 1000.
	if short > draws/100 {
		t.Errorf("%d of %d tokens of 16 random hex digits were refused", short, draws)
	}
}
