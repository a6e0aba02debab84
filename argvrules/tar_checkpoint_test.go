package argvrules

import (
	"os"
	"strings"
	"testing"
)

// TestTarCheckpointActionDecision: the inert
// checkpoint actions stay allowed (a documented difference from the
// reference README, which refuses all), every other action is refused in
// every spelling, and SECURITY.md lists exactly the allowed ones.
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
		t.Fatal("the inert actions are refused: update SECURITY.md and README (where we differ) with the decision")
	}
	doc, err := os.ReadFile("../SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"`dot`", "`bell`", "`echo`", "`echo=TEXT`", "`ttyout=TEXT`", "`totals`", "`exec=`", "`sleep=`", "`wait=`"} {
		if !strings.Contains(string(doc), a) {
			t.Errorf("SECURITY.md does not mention the checkpoint action %s", a)
		}
	}
}
