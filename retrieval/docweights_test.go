package retrieval

import "testing"

// TestTwoDocstringWeights: the search ranking and the premise ranking each
// weigh docstrings by their own tuned weight (the comments on
// searchWeights.Doc and Ranking.DocField say why there are two). Changing
// one is a retuning of that ranking alone: update this test and
// docs/retrieval.md with it.
func TestTwoDocstringWeights(t *testing.T) {
	if defaultWeights.Doc != 0.35 {
		t.Errorf("the search ranking's docstring weight is %v; tuned: 0.35", defaultWeights.Doc)
	}
	if DefaultRanking.DocField != 0.5 {
		t.Errorf("the premise ranking's docstring weight is %v; tuned: 0.5", DefaultRanking.DocField)
	}
}
