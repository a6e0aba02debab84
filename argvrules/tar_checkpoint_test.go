package argvrules

import (
	"os"
	"strings"
	"testing"
)

// TestTarCheckpointActionDecision pins the decision on tar's checkpoint
// actions: the inert ones stay allowed (a documented difference from the
// reference README, which refuses all), every other action is refused in
// every spelling, and docs/rules.md and docs/compatibility.md name
// exactly the allowed ones.
func TestTarCheckpointActionDecision(t *testing.T) {
	inert := []string{".", "dot", "bell", "echo", "echo=%u records", "ttyout=%T", "totals"}
	refused := []string{"exec=id", "sleep=1", "wait=SIGUSR1", "exec", "bogus", ""}
	var cases []row
	for _, act := range inert {
		cases = append(cases,
			row{a("tar", "--checkpoint=10", "--checkpoint-action="+act, "-cf", "a.tar", "d"), ""},
			row{a("tar", "-cf", "a.tar", "d", "--checkpoint-act", act), ""})
	}
	for _, act := range refused {
		cases = append(cases,
			row{a("tar", "--checkpoint-action="+act, "-cf", "a.tar", "d"), ruleTarExecOption.Code},
			row{a("bsdtar", "-cf", "a.tar", "d", "--checkpoint-a", act), ruleTarExecOption.Code})
	}
	checkRows(t, cases)
	if !tarAllowInertCheckpointActions {
		t.Fatal("the inert actions are refused: update docs/rules.md and docs/compatibility.md with the decision")
	}
	for _, file := range []string{"../docs/rules.md", "../docs/compatibility.md"} {
		doc, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range []string{"`dot`", "`bell`", "`echo`", "`echo=TEXT`", "`ttyout=TEXT`", "`totals`", "`exec=`", "`sleep=`", "`wait=`"} {
			if !strings.Contains(string(doc), act) {
				t.Errorf("%s does not mention the checkpoint action %s", file, act)
			}
		}
	}
}
