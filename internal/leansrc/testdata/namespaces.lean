/-!
# Namespaces and sections

Module doc with `theorem fake` inside.
-/

namespace A.B

def inner : Nat := 1

theorem A.dotted : inner = 1 := rfl

protected theorem prot : True := trivial

private def hidden := 2

theorem _root_.rootName : True := trivial

section
variable (n : Nat)
theorem usesVar : n = n := rfl
end

end A.B

noncomputable section Sec

def afterSec := 3

end Sec

namespace X
namespace Y
def deep := 4
end Y
def shallow := 5
end X

mutual
  def isEven : Nat → Bool
    | 0 => true
    | n+1 => isOdd n
  def isOdd : Nat → Bool
    | 0 => false
    | n+1 => isEven n
end

open A.B in
theorem openIn : inner = inner := rfl

export A.B (inner)

def atRoot := 6

namespace Complex
namespace _root_.ComplexOrder
theorem rootNs : True := trivial
end _root_.ComplexOrder
theorem backInComplex : True := trivial
end Complex

section SignType.sign
theorem inDottedSection : True := trivial
end SignType.sign
theorem afterDottedSection : True := trivial
