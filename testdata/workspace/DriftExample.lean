import DriftExample.Divisibility
import DriftExample.Primes
import DriftExample.ModArith
import DriftExample.Algebra
import DriftExample.Lattice
import DriftExample.Demo
