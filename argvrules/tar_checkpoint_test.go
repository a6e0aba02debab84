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
	var cases []recCase
	for _, a := range inert {
		cases = append(cases,
			recCase{[]string{"tar", "--checkpoint=10", "--checkpoint-action=" + a, "-cf", "a.tar", "d"}, ""},
			recCase{[]string{"tar", "-cf", "a.tar", "d", "--checkpoint-act", a}, ""})
	}
	for _, a := range refused {
		cases = append(cases,
			recCase{[]string{"tar", "--checkpoint-action=" + a, "-cf", "a.tar", "d"}, ruleTarExecOption.Code},
			recCase{[]string{"bsdtar", "-cf", "a.tar", "d", "--checkpoint-a", a}, ruleTarExecOption.Code})
	}
	runRecCases(t, checkTar, cases)
	if !tarAllowInertCheckpointActions {
		t.Fatal("the inert actions are refused: update docs/rules.md and docs/compatibility.md with the decision")
	}
	for _, file := range []string{"../docs/rules.md", "../docs/compatibility.md"} {
		doc, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{"`dot`", "`bell`", "`echo`", "`echo=TEXT`", "`ttyout=TEXT`", "`totals`", "`exec=`", "`sleep=`", "`wait=`"} {
			if !strings.Contains(string(doc), a) {
				t.Errorf("%s does not mention the checkpoint action %s", file, a)
			}
		}
	}
}
