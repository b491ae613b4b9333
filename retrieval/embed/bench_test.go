package embed

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/proc"
)

// sampleDecls are declaration texts in the shape the retrieval engine embeds
// (name, signature, docstring), typical of Mathlib.
var sampleDecls = []string{
	"Nat.Prime (p : ℕ) : Prop -- p is a prime number: at least 2 and divisible only by 1 and itself",
	"theorem Nat.exists_infinite_primes (n : ℕ) : ∃ p, n ≤ p ∧ p.Prime",
	"theorem Nat.Prime.eq_one_or_self_of_dvd {p : ℕ} (pp : p.Prime) (a : ℕ) (h : a ∣ p) : a = 1 ∨ a = p",
	"def ZMod : ℕ → Type -- The integers modulo n : ℕ.",
	"theorem ZMod.pow_card_sub_one_eq_one {p : ℕ} [Fact p.Prime] {a : ZMod p} (ha : a ≠ 0) : a ^ (p - 1) = 1 -- Fermat's Little Theorem",
	"def IsOpen [TopologicalSpace X] (s : Set X) : Prop -- A set is open if it belongs to the topology",
	"theorem DifferentiableOn.continuousOn (h : DifferentiableOn 𝕜 f s) : ContinuousOn f s",
	"theorem Finset.sum_range_id_mul_two (n : ℕ) : (∑ i ∈ Finset.range n, i) * 2 = n * (n - 1) -- Gauss summation",
	"class Group (G : Type u) extends DivInvMonoid G -- A group is a monoid with an operation ⁻¹ satisfying a⁻¹ * a = 1",
	"theorem Subgroup.card_subgroup_dvd_card [Fintype G] (s : Subgroup G) [Fintype s] : Fintype.card s ∣ Fintype.card G -- Lagrange's theorem",
	"def Polynomial.eval (x : R) (p : R[X]) : R -- evaluates a polynomial p at x",
	"theorem Real.sqrt_lt_sqrt {x y : ℝ} (hx : 0 ≤ x) (h : x < y) : √x < √y",
	"structure LinearMap (σ : R →+* S) (M : Type) (M₂ : Type) extends AddHom M M₂ -- a map between modules that is linear",
	"theorem Matrix.det_mul (M N : Matrix n n R) : (M * N).det = M.det * N.det",
	"theorem intervalIntegral.integral_comp_mul_deriv {f f' g : ℝ → ℝ} (h : ∀ x ∈ uIcc a b, HasDerivAt f (f' x) x) : ∫ x in a..b, (g ∘ f) x * f' x = ∫ x in f a..f b, g x -- change of variables",
	"theorem Int.emod_emod_of_dvd (n : ℤ) {m k : ℤ} (h : m ∣ k) : n % k % m = n % m",
	"def Function.Injective (f : α → β) : Prop -- a function is injective if f a = f b implies a = b",
	"theorem MeasureTheory.integral_add (hf : Integrable f μ) (hg : Integrable g μ) : ∫ a, f a + g a ∂μ = ∫ a, f a ∂μ + ∫ a, g a ∂μ",
	"instance : Field ℚ -- the rational numbers form a field",
	"theorem Complex.abs_exp (z : ℂ) : Complex.abs (Complex.exp z) = Real.exp z.re",
	"def Set.ncard (s : Set α) : ℕ -- the cardinality of a set as a natural number, zero if infinite",
	"theorem IsCompact.exists_isMinOn [ClosedIciTopology α] {s : Set β} (hs : IsCompact s) (ne_s : s.Nonempty) {f : β → α} (hf : ContinuousOn f s) : ∃ x ∈ s, IsMinOn f s x -- extreme value theorem",
	"theorem Nat.Coprime.gcd_eq_one {m n : ℕ} : Nat.Coprime m n → Nat.gcd m n = 1",
	"theorem tendsto_nhds_unique [T2Space X] {f : Y → X} {l : Filter Y} {a b : X} [NeBot l] (ha : Tendsto f l (𝓝 a)) (hb : Tendsto f l (𝓝 b)) : a = b -- limits are unique in Hausdorff spaces",
}

// benchTexts returns n humanised declaration texts: from the Mathlib tree
// named by DRIFT_MATHLIB when set (declaration lines), else sampleDecls.
func benchTexts(b *testing.B, n int) []string {
	var src []string
	if root := os.Getenv("DRIFT_MATHLIB"); root != "" {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || len(src) >= n || d.IsDir() || !strings.HasSuffix(path, ".lean") {
				return nil
			}
			f, err := os.Open(path)
			if err != nil {
				return nil
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() && len(src) < n {
				line := sc.Text()
				for _, kw := range []string{"theorem ", "lemma ", "def ", "structure ", "class "} {
					if strings.HasPrefix(line, kw) {
						src = append(src, line)
						break
					}
				}
			}
			return nil
		})
	}
	if len(src) == 0 {
		src = sampleDecls
	}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = Humanize(src[i%len(src)])
	}
	return texts
}

// nameDocTexts returns n texts in the retrieval engine's form: the
// declaration name split into words, then its docstring if any.
func nameDocTexts(n int) []string {
	texts := make([]string, n)
	for i := range texts {
		d := sampleDecls[i%len(sampleDecls)]
		sig, doc, _ := strings.Cut(d, " -- ")
		fields := strings.Fields(sig)
		name := fields[0]
		if (name == "theorem" || name == "def" || name == "class" || name == "structure" || name == "instance") && len(fields) > 1 {
			name = fields[1]
		}
		texts[i] = Humanize(name)
		if doc != "" {
			texts[i] += ": " + doc
		}
	}
	return texts
}

func benchEmbedder(b *testing.B, e Embedder, texts []string) {
	batch := len(texts)
	ctx := context.Background()
	if _, err := e.Embed(ctx, texts[:8]); err != nil { // warm-up
		b.Fatal(err)
	}
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "texts/s")
	// Texts per CPU-second stays meaningful when other processes share the
	// cores; an idle 2-core machine approaches twice this figure.
	b.ReportMetric(float64(batch*b.N)/(cpuSeconds()-cpu0), "texts/cpu-s")
	if l, ok := e.(*Local); ok {
		tokens := 0
		for _, t := range texts {
			tokens += len(l.tokenize(t, l.maxLen))
		}
		b.ReportMetric(float64(tokens)/float64(batch), "tokens/text")
	}
}

// cpuSeconds is the user+system CPU time used by this process so far.
func cpuSeconds() float64 { return proc.CPUTime().Seconds() }

// BenchmarkEmbed measures each installed local model on 512 texts, 32 or 128
// per inference call: "sig" texts are humanised signatures with docstrings,
// "namedoc" texts are what the retrieval engine embeds (name words and
// docstring).
func BenchmarkEmbed(b *testing.B) {
	sets := map[string][]string{"sig": benchTexts(b, 512), "namedoc": nameDocTexts(512)}
	for _, model := range BundledModels {
		for _, run := range []struct {
			set string
			bs  int
		}{{"sig", 32}, {"sig", 128}, {"namedoc", 32}} {
			b.Run(fmt.Sprintf("%s/%s/batch%d", model, run.set, run.bs), func(b *testing.B) {
				bs := run.bs
				dir := needModel(b, model)
				var e *Local
				var err error
				if strings.HasPrefix(model, "use-lite") {
					e, err = NewUSELite(dir, LocalOptions{Library: ortLibrary(), BatchSize: bs})
				} else {
					var o BERTOptions
					if o, err = BERTOptionsFromDir(dir); err == nil {
						e, err = NewBERT(o, LocalOptions{Library: ortLibrary(), BatchSize: bs})
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				benchEmbedder(b, e, sets[run.set])
			})
		}
	}
}

func BenchmarkTokenizeUSE(b *testing.B) {
	sp, err := LoadSentencePiece(filepath.Join(ModelsDir(), "use-lite", "vocab.json"))
	if err != nil {
		b.Skip(err)
	}
	texts := benchTexts(b, 512)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sp.Encode(texts[i%len(texts)], 128)
	}
}
