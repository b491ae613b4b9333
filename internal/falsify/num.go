package falsify

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// num is an exact rational number: n/d with d > 0 in lowest terms while it
// fits in int64, otherwise r. Integers have d = 1.
type num struct {
	n, d int64
	r    *big.Rat
}

// maxBits caps the size of numbers: a larger result is undefined (the
// statement is then unknown on that assignment), never a hang.
const maxBits = 1 << 15

func small(n int64) num { return num{n: n, d: 1} }

func fromRat(r *big.Rat) (num, bool) {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		return num{n: r.Num().Int64(), d: r.Denom().Int64()}, true
	}
	if r.Num().BitLen() > maxBits || r.Denom().BitLen() > maxBits {
		return num{}, false
	}
	return num{r: r}, true
}

func fromBig(i *big.Int) (num, bool) {
	if i.IsInt64() {
		return small(i.Int64()), true
	}
	if i.BitLen() > maxBits {
		return num{}, false
	}
	return num{r: new(big.Rat).SetInt(i)}, true
}

// rat returns x as a big.Rat.
func (x num) rat() *big.Rat {
	if x.r != nil {
		return x.r
	}
	return big.NewRat(x.n, x.d)
}

// bigInt returns the integer x as a big.Int (x must be an integer).
func (x num) bigInt() *big.Int {
	if x.r != nil {
		return new(big.Int).Set(x.r.Num())
	}
	return big.NewInt(x.n)
}

func (x num) isInt() bool {
	if x.r != nil {
		return x.r.IsInt()
	}
	return x.d == 1
}

func (x num) sign() int {
	if x.r != nil {
		return x.r.Sign()
	}
	switch {
	case x.n > 0:
		return 1
	case x.n < 0:
		return -1
	}
	return 0
}

// int64 returns x when it is an integer that fits in int64.
func (x num) int64() (int64, bool) {
	if x.r != nil || x.d != 1 {
		return 0, false
	}
	return x.n, true
}

func (x num) String() string {
	if x.r != nil {
		return x.r.RatString()
	}
	if x.d == 1 {
		return strconv.FormatInt(x.n, 10)
	}
	return strconv.FormatInt(x.n, 10) + "/" + strconv.FormatInt(x.d, 10)
}

func cmpNum(x, y num) int {
	if x.r == nil && y.r == nil {
		if x.d == 1 && y.d == 1 {
			switch {
			case x.n < y.n:
				return -1
			case x.n > y.n:
				return 1
			}
			return 0
		}
		a, aok := mul64(x.n, y.d)
		b, bok := mul64(y.n, x.d)
		if aok && bok {
			switch {
			case a < b:
				return -1
			case a > b:
				return 1
			}
			return 0
		}
	}
	return x.rat().Cmp(y.rat())
}

func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, !((a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0))
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func gcd64(a, b int64) int64 {
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mk builds n/d in lowest terms (d ≠ 0).
func mk(n, d int64) num {
	if d < 0 {
		if n == math.MinInt64 || d == math.MinInt64 {
			r, _ := fromRat(new(big.Rat).SetFrac(big.NewInt(n), big.NewInt(d)))
			return r
		}
		n, d = -n, -d
	}
	if d != 1 {
		if g := gcd64(n, d); g > 1 {
			n, d = n/g, d/g
		}
	}
	return num{n: n, d: d}
}

func addNum(x, y num) (num, bool) {
	if x.r == nil && y.r == nil {
		if x.d == 1 && y.d == 1 {
			if s, ok := add64(x.n, y.n); ok {
				return small(s), true
			}
		} else if a, ok1 := mul64(x.n, y.d); ok1 {
			if b, ok2 := mul64(y.n, x.d); ok2 {
				if d, ok3 := mul64(x.d, y.d); ok3 {
					if s, ok4 := add64(a, b); ok4 {
						return mk(s, d), true
					}
				}
			}
		}
	}
	return fromRat(new(big.Rat).Add(x.rat(), y.rat()))
}

func negNum(x num) (num, bool) {
	if x.r == nil && x.n != math.MinInt64 {
		return num{n: -x.n, d: x.d}, true
	}
	return fromRat(new(big.Rat).Neg(x.rat()))
}

func subNum(x, y num) (num, bool) {
	ny, ok := negNum(y)
	if !ok {
		return num{}, false
	}
	return addNum(x, ny)
}

func mulNum(x, y num) (num, bool) {
	if x.r == nil && y.r == nil {
		if x.d == 1 && y.d == 1 {
			if p, ok := mul64(x.n, y.n); ok {
				return small(p), true
			}
		} else if a, ok1 := mul64(x.n, y.n); ok1 {
			if b, ok2 := mul64(x.d, y.d); ok2 {
				return mk(a, b), true
			}
		}
	}
	return fromRat(new(big.Rat).Mul(x.rat(), y.rat()))
}

// quoNum is field division with Lean's convention x / 0 = 0.
func quoNum(x, y num) (num, bool) {
	if y.sign() == 0 {
		return small(0), true
	}
	if x.r == nil && y.r == nil {
		if a, ok1 := mul64(x.n, y.d); ok1 {
			if b, ok2 := mul64(x.d, y.n); ok2 {
				return mk(a, b), true
			}
		}
	}
	return fromRat(new(big.Rat).Quo(x.rat(), y.rat()))
}

// natSub is the truncated subtraction of ℕ and NNReal: 0 when y ≥ x.
func natSub(x, y num) (num, bool) {
	if cmpNum(x, y) <= 0 {
		return small(0), true
	}
	return subNum(x, y)
}

// ediv is Int.ediv (and Nat.div on naturals): x / 0 = 0, otherwise the q
// with x = y*q + r and 0 ≤ r < |y|.
func ediv(x, y num) (num, bool) {
	if y.sign() == 0 {
		return small(0), true
	}
	if a, ok := x.int64(); ok {
		if b, ok := y.int64(); ok && !(a == math.MinInt64 && b == -1) {
			q, r := a/b, a%b
			if r < 0 {
				if b > 0 {
					q--
				} else {
					q++
				}
			}
			return small(q), true
		}
	}
	q, m := new(big.Int), new(big.Int)
	q.DivMod(x.bigInt(), y.bigInt(), m) // Euclidean, as Int.ediv
	return fromBig(q)
}

// emod is Int.emod (and Nat.mod on naturals): x % 0 = x, otherwise the r
// with 0 ≤ r < |y| and x ≡ r mod y.
func emod(x, y num) (num, bool) {
	if y.sign() == 0 {
		return x, true
	}
	if a, ok := x.int64(); ok {
		if b, ok := y.int64(); ok {
			if b == -1 || b == 1 {
				return small(0), true
			}
			r := a % b
			if r < 0 {
				r += abs64(b)
			}
			return small(r), true
		}
	}
	q, m := new(big.Int), new(big.Int)
	q.DivMod(x.bigInt(), y.bigInt(), m)
	return fromBig(m)
}

// powNum is x ^ e for a natural exponent e.
func powNum(x num, e num) (num, bool) {
	k, ok := e.int64()
	if !ok || k < 0 {
		return num{}, false
	}
	if x.isInt() {
		if b, ok := x.int64(); ok && (b == 0 || b == 1) {
			if k == 0 {
				return small(1), true
			}
			return x, true
		}
		if b, ok := x.int64(); ok && b == -1 {
			if k%2 == 0 {
				return small(1), true
			}
			return x, true
		}
	}
	bitsNeeded := int64(x.rat().Num().BitLen()+x.rat().Denom().BitLen()) * k
	if k > maxBits || bitsNeeded > maxBits {
		return num{}, false
	}
	r := small(1)
	base := x
	for k > 0 {
		if k&1 == 1 {
			if r, ok = mulNum(r, base); !ok {
				return num{}, false
			}
		}
		k >>= 1
		if k > 0 {
			if base, ok = mulNum(base, base); !ok {
				return num{}, false
			}
		}
	}
	return r, true
}

// zpow is x ^ e for an integer exponent in a field (x⁻¹ with 0⁻¹ = 0).
func zpow(x, e num) (num, bool) {
	if e.sign() >= 0 {
		return powNum(x, e)
	}
	ne, ok := negNum(e)
	if !ok {
		return num{}, false
	}
	p, ok := powNum(x, ne)
	if !ok {
		return num{}, false
	}
	return quoNum(small(1), p)
}

func absNum(x num) (num, bool) {
	if x.sign() < 0 {
		return negNum(x)
	}
	return x, true
}

// gcdNum is the gcd of the absolute values of two integers.
func gcdNum(x, y num) (num, bool) {
	if a, ok := x.int64(); ok && a != math.MinInt64 {
		if b, ok := y.int64(); ok && b != math.MinInt64 {
			return small(gcd64(a, b)), true
		}
	}
	return fromBig(new(big.Int).GCD(nil, nil, new(big.Int).Abs(x.bigInt()), new(big.Int).Abs(y.bigInt())))
}

// lcmNum is the lcm of the absolute values (0 when either is 0).
func lcmNum(x, y num) (num, bool) {
	if x.sign() == 0 || y.sign() == 0 {
		return small(0), true
	}
	g, ok := gcdNum(x, y)
	if !ok {
		return num{}, false
	}
	q, ok := ediv(x, g)
	if !ok {
		return num{}, false
	}
	p, ok := mulNum(q, y)
	if !ok {
		return num{}, false
	}
	return absNum(p)
}

// dvd reports whether x divides y (0 ∣ y only for y = 0).
func dvd(x, y num) bool {
	if x.sign() == 0 {
		return y.sign() == 0
	}
	r, ok := emod(y, x)
	return ok && r.sign() == 0
}

// maxFactorial bounds the arguments of n ! that are evaluated.
const maxFactorial = 2000

func factorial(x num) (num, bool) {
	n, ok := x.int64()
	if !ok || n < 0 || n > maxFactorial {
		return num{}, false
	}
	if n <= 20 {
		f := int64(1)
		for i := int64(2); i <= n; i++ {
			f *= i
		}
		return small(f), true
	}
	return fromBig(new(big.Int).MulRange(1, n))
}

// choose is Nat.choose.
func choose(x, y num) (num, bool) {
	n, ok1 := x.int64()
	k, ok2 := y.int64()
	if !ok1 || !ok2 || n < 0 || k < 0 || n > 4096 {
		return num{}, false
	}
	if k > n {
		return small(0), true
	}
	return fromBig(new(big.Int).Binomial(n, k))
}

// isqrt is Nat.sqrt: the largest r with r * r ≤ x.
func isqrt(x num) (num, bool) {
	if x.sign() <= 0 {
		return small(0), true
	}
	return fromBig(new(big.Int).Sqrt(x.bigInt()))
}

// isPrime is Nat.Prime on a natural number; ok is false beyond int64,
// where no exact test is cheap.
func isPrime(x num) (prime, ok bool) {
	n, ok := x.int64()
	if !ok {
		return false, false
	}
	if n < 2 {
		return false, true
	}
	if n < 4 {
		return true, true
	}
	if n%2 == 0 {
		return false, true
	}
	if n < 1<<24 {
		for d := int64(3); d*d <= n; d += 2 {
			if n%d == 0 {
				return false, true
			}
		}
		return true, true
	}
	return big.NewInt(n).ProbablyPrime(0), true // Baillie-PSW: exact below 2⁶⁴
}

// sqrtExact is Real.sqrt where it is rational: 0 for x ≤ 0, √x when the
// numerator and denominator are perfect squares, undefined otherwise.
func sqrtExact(x num) (num, bool) {
	if x.sign() <= 0 {
		return small(0), true
	}
	r := x.rat()
	n, d := new(big.Int).Sqrt(r.Num()), new(big.Int).Sqrt(r.Denom())
	if new(big.Int).Mul(n, n).Cmp(r.Num()) != 0 || new(big.Int).Mul(d, d).Cmp(r.Denom()) != 0 {
		return num{}, false
	}
	return fromRat(new(big.Rat).SetFrac(n, d))
}

// floorNum is ⌊x⌋ (Int.floor) and ceilNum ⌈x⌉ (Int.ceil).
func floorNum(x num) (num, bool) {
	if x.isInt() {
		return x, true
	}
	r := x.rat()
	q, m := new(big.Int), new(big.Int)
	q.DivMod(r.Num(), r.Denom(), m) // Euclidean with a positive divisor: the floor
	return fromBig(q)
}

func ceilNum(x num) (num, bool) {
	n, ok := negNum(x)
	if !ok {
		return num{}, false
	}
	f, ok := floorNum(n)
	if !ok {
		return num{}, false
	}
	return negNum(f)
}

// fib is Nat.fib (fib 0 = 0, fib 1 = 1).
func fib(x num) (num, bool) {
	n, ok := x.int64()
	if !ok || n < 0 || n > 20000 {
		return num{}, false
	}
	a, b := new(big.Int), big.NewInt(1)
	for ; n > 0; n-- {
		a, b = b, a.Add(a, b)
	}
	return fromBig(a)
}

// totient is Nat.totient: how many k < n are coprime to n (φ 0 = 0).
func totient(x num) (num, bool) {
	n, ok := x.int64()
	if !ok || n < 0 || n > 1<<40 {
		return num{}, false
	}
	res, m := n, n
	for p := int64(2); p*p <= m; p++ {
		if m%p == 0 {
			for m%p == 0 {
				m /= p
			}
			res -= res / p
		}
	}
	if m > 1 {
		res -= res / m
	}
	return small(res), true
}

// rootExact is the positive q-th root of a positive rational when it is
// rational.
func rootExact(x num, q int64) (num, bool) {
	if q == 1 {
		return x, true
	}
	r := x.rat()
	num1, ok1 := intRoot(r.Num(), q)
	den, ok2 := intRoot(r.Denom(), q)
	if !ok1 || !ok2 {
		return num{}, false
	}
	return fromRat(new(big.Rat).SetFrac(num1, den))
}

// intRoot is the exact q-th root of a positive integer, if it has one.
func intRoot(n *big.Int, q int64) (*big.Int, bool) {
	if n.BitLen() > maxBits {
		return nil, false
	}
	// r = round(n^(1/q)) by bisection
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(n.BitLen()/int(q)+1))
	e := big.NewInt(q)
	for lo.Cmp(hi) < 0 {
		mid := new(big.Int).Rsh(new(big.Int).Add(new(big.Int).Add(lo, hi), big.NewInt(1)), 1)
		if new(big.Int).Exp(mid, e, nil).Cmp(n) <= 0 {
			lo = mid
		} else {
			hi = mid.Sub(mid, big.NewInt(1))
		}
	}
	return lo, new(big.Int).Exp(lo, e, nil).Cmp(n) == 0
}

// rpowExact is Real.rpow where it is rational: an integral exponent is
// zpow (Real.rpow_intCast, for every base); 0 ^ y = 0 for y ≠ 0; a positive
// base with exponent p/q when its q-th root is rational. Negative bases with
// other exponents are undefined here.
func rpowExact(x, y num) (num, bool) {
	if y.isInt() {
		return zpow(x, y)
	}
	switch x.sign() {
	case 0:
		return small(0), true
	case -1:
		return num{}, false
	}
	r := y.rat()
	if !r.Denom().IsInt64() || r.Denom().Int64() > 12 {
		return num{}, false
	}
	root, ok := rootExact(x, r.Denom().Int64())
	if !ok {
		return num{}, false
	}
	p, _ := fromBig(r.Num())
	return zpow(root, p)
}

// logbExact is Real.logb b x = log x / log b where it is rational: 0 when
// log x or log b is 0 (x or b in {0, 1, -1}: Real.log is log |x| and
// log 0 = 0), p/q when |x|^q = |b|^p for small q.
func logbExact(b, x num) (num, bool) {
	ab, ok1 := absNum(b)
	ax, ok2 := absNum(x)
	if !ok1 || !ok2 {
		return num{}, false
	}
	one := small(1)
	if ab.sign() == 0 || ax.sign() == 0 || cmpNum(ab, one) == 0 || cmpNum(ax, one) == 0 {
		return small(0), true
	}
	// the candidates p/q come from floating point; each is checked exactly
	fx, _ := ax.rat().Float64()
	fb, _ := ab.rat().Float64()
	ratio := math.Log(fx) / math.Log(fb)
	if math.IsNaN(ratio) || math.IsInf(ratio, 0) || math.Abs(ratio) > 1024 {
		return num{}, false
	}
	for q := int64(1); q <= 6; q++ {
		p := int64(math.Round(ratio * float64(q)))
		if p == 0 {
			continue
		}
		xq, ok1 := powNum(ax, small(q))
		bp, ok2 := zpow(ab, small(p))
		if ok1 && ok2 && cmpNum(xq, bp) == 0 {
			return mk(p, q), true
		}
	}
	return num{}, false
}

// logExact is Real.log where it is rational: 0 at 0, 1 and -1.
func logExact(x num) (num, bool) {
	ax, ok := absNum(x)
	if ok && (ax.sign() == 0 || cmpNum(ax, small(1)) == 0) {
		return small(0), true
	}
	return num{}, false
}

// expExact is Real.exp where it is rational: 1 at 0.
func expExact(x num) (num, bool) {
	if x.sign() == 0 {
		return small(1), true
	}
	return num{}, false
}
